import { changeCoins } from '../../core/ledger';
import type { Db } from '../../db/index';
import { changeVip, DAY_MS, type VipResult } from './ledger';

/**
 * What a purchase grants (an order's plan, an in-app product): VIP time through changeVip and coins
 * through the ledger, both inside the caller's transaction and both naming the purchase as their
 * source, so the database's unique (reason, ref_type, ref_id) indexes refuse a second grant.
 */
export interface Grant {
  userId: number;
  /** The app of the purchase (orders.app, iap_records.app): VIP is per app, coins company-wide. */
  app: string;
  /** VIP days; 'lifetime' sets 永久; 0 grants no VIP time. */
  days: number | 'lifetime';
  coins: number;
  /** 'order' or 'iap': the reason on both ledgers and the source's ref_type. */
  source: 'order' | 'iap';
  /** The order number or the store transaction id. */
  refId: string;
  operatorId?: number | null;
  note?: string | null;
}

export async function applyGrant(trx: Db, g: Grant): Promise<{ vip: VipResult | null; coinRecordId: number | null }> {
  const vip =
    g.days === 0
      ? null
      : await changeVip(trx, {
          userId: g.userId,
          app: g.app,
          days: g.days,
          reason: g.source,
          refType: g.source,
          refId: g.refId,
          operatorId: g.operatorId ?? null,
        });
  const coins =
    g.coins > 0
      ? await changeCoins(trx, {
          userId: g.userId,
          delta: g.coins,
          reason: g.source,
          refType: g.source,
          refId: g.refId,
          operatorId: g.operatorId ?? null,
          note: g.note ?? null,
        })
      : null;
  return { vip, coinRecordId: coins?.recordId ?? null };
}

export interface TakenBack {
  vipTakenMs: number;
  vipNotTakenMs: number;
  coinsTaken: number;
  coinsNotTaken: number;
}

/**
 * Takes back what a grant left: the VIP time still ahead (days already lived through cannot be;
 * a lifetime grant goes back to the expiry the user had before it) and the coins not yet spent.
 * Says what could not be taken back.
 */
export async function takeBackGrant(trx: Db, g: Grant): Promise<TakenBack> {
  let vipTakenMs = 0;
  if (g.days !== 0) {
    const before =
      g.days === 'lifetime'
        ? await trx
            .selectFrom('vip_records')
            .select('before_expires_at')
            .where('reason', '=', g.source)
            .where('ref_type', '=', g.source)
            .where('ref_id', '=', g.refId)
            .executeTakeFirst()
        : undefined;
    const vip = await changeVip(trx, {
      userId: g.userId,
      app: g.app,
      days: g.days === 'lifetime' ? 'lifetime' : -g.days,
      ...(g.days === 'lifetime'
        ? { restoreTo: before?.before_expires_at == null ? null : Number(before.before_expires_at) }
        : {}),
      reason: 'refund',
      refType: g.source,
      refId: g.refId,
      operatorId: g.operatorId ?? null,
      note: g.note ?? null,
    });
    vipTakenMs = -vip.changedMs;
  }
  const wantedMs = g.days === 'lifetime' ? vipTakenMs : g.days * DAY_MS;
  const balance = Number(
    (await trx.selectFrom('users').select('coins').where('id', '=', g.userId).executeTakeFirstOrThrow()).coins,
  );
  const coinsTaken = Math.min(g.coins, balance);
  if (coinsTaken > 0) {
    await changeCoins(trx, {
      userId: g.userId,
      delta: -coinsTaken,
      reason: g.source,
      refType: `${g.source}.refund`,
      refId: g.refId,
      operatorId: g.operatorId ?? null,
      note: g.note ?? null,
    });
  }
  return {
    vipTakenMs,
    vipNotTakenMs: Math.max(0, wantedMs - vipTakenMs),
    coinsTaken,
    coinsNotTaken: g.coins - coinsTaken,
  };
}
