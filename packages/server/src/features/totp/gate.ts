import { Code } from '@appdesk/contract/codes';
import type { AdminGate } from '../../http/context';
import { ApiError } from '../../http/errors';
import { enabledFactor } from './factor';

/**
 * An operator whose role requires two-factor sign-in (roles.require_totp) and who has not enrolled
 * holds a session that reaches no admin endpoint (code 433) until they enrol: enrolment itself is
 * on user-level endpoints (/api/totp/*), which stay open. Operators of no such role pay nothing.
 */
const requireEnrolment: AdminGate = async (db, user, grants) => {
  if (!grants.requireTotp) return;
  if (await enabledFactor(db, user.id)) return;
  throw new ApiError(Code.SECOND_FACTOR_ENROLMENT_REQUIRED);
};

export default requireEnrolment;
