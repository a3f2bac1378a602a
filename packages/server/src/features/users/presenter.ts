import type { CurrentUser } from '@appdesk/contract';
import type { SessionUser } from './sessions';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Phone with the middle four digits hidden, used as a display name before a nickname is set. */
export function maskPhone(phone: string): string {
  return phone.length === 11 ? `${phone.slice(0, 3)}****${phone.slice(7)}` : phone;
}

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
    vipExpiresAt: iso(user.vip_expires_at),
    createdAt: new Date(user.created_at).toISOString(),
  };
}
