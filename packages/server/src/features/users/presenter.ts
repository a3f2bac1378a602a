import type { AdminUser, CurrentUser } from '@appdesk/contract/endpoints/users';
import { maskPhone } from '@appdesk/contract/format';
import { type SessionUser, sessionUserColumns } from '../../core/sessions';
import { iso, isoOrNull } from '../../db/paging';
import type { UsersTable } from '../../db/schema';

export function presentCurrentUser(user: SessionUser): CurrentUser {
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
    vipExpiresAt: isoOrNull(user.vip_expires_at),
    createdAt: iso(user.created_at),
    mustChangePassword: user.must_change_password === 1,
  };
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

export type AdminUserRow = Pick<UsersTable, 'app' | 'channel' | 'last_login_at' | 'last_active_at' | 'blocked_until'> &
  SessionUser;

export function presentAdminUser(row: AdminUserRow): AdminUser {
  // Assigned, not spread: a spread with more keys after it is slow in Node 20 (20 rows a page).
  // Operators see the phone masked; the whole number is an explicit, logged look (users/fetch/phone).
  return Object.assign(presentCurrentUser(row), {
    phone: maskPhone(row.phone),
    app: row.app,
    channel: row.channel,
    lastLoginAt: isoOrNull(row.last_login_at),
    lastActiveAt: isoOrNull(row.last_active_at),
    blockedUntil: row.status === 'blocked' ? isoOrNull(row.blocked_until) : null,
  });
}
