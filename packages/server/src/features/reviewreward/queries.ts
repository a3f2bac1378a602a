import { REVIEW_REWARD_DEFAULT_COINS } from '@appdesk/contract/constants';
import type { myReviewClaim, reviewClaim, reviewFilter } from '@appdesk/contract/endpoints/reviewreward';
import { maskPhone } from '@appdesk/contract/format';
import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index';
import { iso, isoOrNull, rangeMs } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';
import type { ReviewRewardsTable } from './tables';

type Row = Selectable<ReviewRewardsTable>;
type Joined = Row & { phone: string; reviewer_nickname: string | null; reviewer_phone: string | null };

export function presentMine(r: Row): z.infer<typeof myReviewClaim> {
  return {
    id: r.id,
    app: r.app,
    store: r.store,
    screenshot: r.screenshot,
    status: r.status as 'pending',
    coins: Number(r.coins),
    reason: r.reason,
    createdAt: iso(Number(r.created_at)),
    reviewedAt: isoOrNull(r.reviewed_at === null ? null : Number(r.reviewed_at)),
  };
}

export function presentClaim(r: Joined): z.infer<typeof reviewClaim> {
  const reviewer = r.reviewer_id === null ? null : r.reviewer_nickname || maskPhone(r.reviewer_phone ?? '');
  return { ...presentMine(r), userId: r.user_id, userPhone: maskPhone(r.phone), reviewerName: reviewer };
}

/** Claims with their user's phone and the reviewer's name. */
export const claimsWithPeople = (db: Db) =>
  db
    .selectFrom('review_rewards')
    .innerJoin('users', 'users.id', 'review_rewards.user_id')
    .leftJoin('users as reviewer', 'reviewer.id', 'review_rewards.reviewer_id')
    .selectAll('review_rewards')
    .select(['users.phone', 'reviewer.nickname as reviewer_nickname', 'reviewer.phone as reviewer_phone']);

export async function loadClaim(db: Db, id: number) {
  const row = await claimsWithPeople(db).where('review_rewards.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('好评奖励申请不存在');
  return row;
}

export function claimConditions(filter: Omit<z.output<typeof reviewFilter>, 'app'> & { apps?: AppScope }) {
  const { from, to } = rangeMs(filter);
  const column = (name: string) => sql.ref(`review_rewards.${name}`);
  return <DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
    eb.and([
      ...(filter.status ? [eb(column('status'), '=', filter.status)] : []),
      ...(filter.store ? [eb(column('store'), '=', filter.store)] : []),
      ...(filter.apps ? [inScope('review_rewards.app', filter.apps)(eb)] : []),
      ...(from !== undefined ? [eb(column('created_at'), '>=', from)] : []),
      ...(to !== undefined ? [eb(column('created_at'), '<=', to)] : []),
      ...(filter.phone ? [eb(column('user_id'), 'in', sql`(select id from users where phone = ${filter.phone})`)] : []),
    ]);
}

/** The coins an approved claim of `app` gives (the operators' setting, else the default). */
export async function rewardCoins(db: Db, app: string): Promise<number> {
  const row = await db.selectFrom('review_reward_settings').select('coins').where('app', '=', app).executeTakeFirst();
  return row ? Number(row.coins) : REVIEW_REWARD_DEFAULT_COINS;
}
