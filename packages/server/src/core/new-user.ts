import type { Insertable } from 'kysely';
import type { UsersTable } from '../db/schema';

/** A new account's row: normal, not admin, no coins (grants go through the ledger), active now. */
export function newUserRow(
  fields: Pick<UsersTable, 'phone' | 'password_hash'> &
    Partial<Pick<UsersTable, 'nickname' | 'is_admin' | 'app' | 'channel' | 'last_login_at'>> & {
      must_change_password?: number;
    },
  now = Date.now(),
): Insertable<UsersTable> {
  return {
    nickname: '',
    email_verified: 0,
    is_admin: 0,
    status: 'normal',
    coins: 0,
    last_active_at: now,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}
