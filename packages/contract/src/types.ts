/** Type-only view of the contract for the web app: importing it adds no runtime code. */

export type { CoinReason } from './constants';
export type { Access, Envelope } from './endpoint';
export type { Allocation } from './endpoints/allocation';
export type { CoinRecord } from './endpoints/coin';
export type { ApiInput, ApiOutput, ApiPath, ApiResponse, Endpoints } from './endpoints/index';
export type { InboxMessage } from './endpoints/message';
export type { Notice } from './endpoints/notices';
export type { SecondFactorChallenge, TotpStatus } from './endpoints/totp';
export type { AdminUser, CurrentUser, UserListFilter } from './endpoints/users';
