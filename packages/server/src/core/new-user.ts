import type { Insertable } from 'kysely';
import type { UsersTable } from '../db/schema';

/**
 * A new account's row: normal, not admin, no coins (grants go through the ledger). Not active
 * until its owner signs in or calls (`last_active_at` null): an account an operator generates or
 * sets up has not used the app, so it must not count among the day's active users. A sign-up from
 * the app passes `last_active_at`, since its owner is signed in at once.
 */
export function newUserRow(
  fields: Pick<UsersTable, 'phone' | 'password_hash'> &
    Partial<Pick<UsersTable, 'nickname' | 'is_admin' | 'app' | 'channel' | 'last_login_at' | 'last_active_at'>> & {
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
    last_active_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
  };
}
