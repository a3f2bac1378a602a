import type { AdminUser, CurrentUser } from '@appdesk/contract/endpoints/users';
import { maskPhone } from '@appdesk/contract/format';
import { type AccountColumns, type SessionUser, sessionUserColumns } from '../../core/sessions';
import type { Db } from '../../db/index';
import { iso, isoOrNull } from '../../db/paging';
import type { UsersTable } from '../../db/schema';
import { vipExpiries, vipExpiryOf } from '../vip/public';

/** The account and its VIP expiry in one app (VIP is per app: the session's, or the one asked about). */
export function presentCurrentUser(user: AccountColumns, vipExpiresAt: number | null): CurrentUser {
  return {
    id: user.id,
    phone: user.phone,
    name: user.nickname || maskPhone(user.phone),
    nickname: user.nickname,
    avatar: user.avatar,
    email: user.email,
    emailVerified: user.email_verified === 1,
    isAdmin: user.is_admin === 1,
    status: user.status,
    coins: user.coins,
    vipExpiresAt: isoOrNull(vipExpiresAt),
    createdAt: iso(user.created_at),
    mustChangePassword: user.must_change_password === 1,
  };
}

/** The signed-in account as its app sees it: VIP in the session's app, or in `app` when asked. */
export async function presentSessionUser(db: Db, user: SessionUser, app?: string): Promise<CurrentUser> {
  return presentCurrentUser(user, await vipExpiryOf(db, user.id, app ?? user.session_app));
}

/** The columns an operator sees; never the password hash. */
export const adminUserColumns = [
  ...sessionUserColumns,
  'app',
  'channel',
  'last_login_at',
  'last_active_at',
  'blocked_until',
] as const;

type AdminColumns = Pick<UsersTable, 'app' | 'channel' | 'last_login_at' | 'last_active_at' | 'blocked_until'> &
  AccountColumns;
/** An operator's row: the account and the VIP expiry the list shows (withVip). */
export type AdminUserRow = AdminColumns & { vip_expires_at: number | null };

/**
 * The rows with the VIP expiry operators see: in `app` when the list is of one app (the latest of
 * the operator's apps when they are limited to several), else the latest of any app's (VIP is per
 * app; one query for the page or export batch).
 */
export async function withVip(
  db: Db,
  rows: AdminColumns[],
  app: string | readonly string[] | undefined,
): Promise<AdminUserRow[]> {
  const expiries = await vipExpiries(
    db,
    rows.map((r) => r.id),
    app,
  );
  return rows.map((row) => Object.assign(row, { vip_expires_at: expiries.get(row.id) ?? null }));
}

/** A row of the users list as userPage read it with its VIP column (a bigint is a string on PostgreSQL). */
export function presentListedUser(row: AdminColumns & { vip_expires_at?: number | string | null }): AdminUser {
  const expiry = row.vip_expires_at;
  return presentAdminUser(Object.assign(row, { vip_expires_at: expiry == null ? null : Number(expiry) }));
}

export function presentAdminUser(row: AdminUserRow): AdminUser {
  // Assigned, not spread: a spread with more keys after it is slow in Node 20 (20 rows a page).
  // Operators see the phone masked; the whole number is an explicit, logged look (users/fetch/phone).
  return Object.assign(presentCurrentUser(row, row.vip_expires_at), {
    phone: maskPhone(row.phone),
    app: row.app,
    channel: row.channel,
    lastLoginAt: isoOrNull(row.last_login_at),
    lastActiveAt: isoOrNull(row.last_active_at),
    blockedUntil: row.status === 'blocked' ? isoOrNull(row.blocked_until) : null,
  });
}
