import type { z } from 'zod';
import type { EndpointDef } from '../endpoint';
import { allocationEndpoints } from './allocation';
import { auditEndpoints } from './audit';
import { coinEndpoints } from './coin';
import { messageEndpoints } from './message';
import { noticeEndpoints } from './notices';
import { accountEndpoints, userAdminEndpoints, userEndpoints } from './users';

/** Every API endpoint. The server registers routes from this table and nothing else. */
export const endpoints = {
  ...allocationEndpoints,
  ...userEndpoints,
  ...accountEndpoints,
  ...userAdminEndpoints,
  ...coinEndpoints,
  ...messageEndpoints,
  ...auditEndpoints,
  ...noticeEndpoints,
} satisfies Record<`/api/${string}`, EndpointDef>;

export type Endpoints = typeof endpoints;
export type ApiPath = keyof Endpoints;
export type ApiInput<P extends ApiPath> = z.input<Endpoints[P]['input']>;
export type ApiOutput<P extends ApiPath> = z.output<Endpoints[P]['output']>;

/** The full answer of a call: output under `data`, or spread at the root for `placement: 'root'`. */
export type ApiResponse<P extends ApiPath> = Endpoints[P] extends { placement: 'root' }
  ? { code: number; message: string } & Partial<ApiOutput<P>>
  : { code: number; message: string; data?: ApiOutput<P> };
