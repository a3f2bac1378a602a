import type { IapRecord } from '@appdesk/contract/endpoints/iaprecord';
import { maskPhone } from '@appdesk/contract/format';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import { iso, isoOrNull, rangeMs } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import { fail } from '../../http/errors';
import type { IapRecordsTable } from './tables';

type Row = Selectable<IapRecordsTable> & { phone: string | null; product_name: string | null };

const msOrNull = (v: number | null) => isoOrNull(v === null ? null : Number(v));

export function presentRecord(r: Row): IapRecord {
  return {
    id: r.id,
    userId: r.user_id,
    userPhone: r.phone ? maskPhone(r.phone) : null,
    app: r.app,
    platform: r.platform as IapRecord['platform'],
    productId: r.product_id,
    productName: r.product_name,
    transactionId: r.transaction_id ?? r.claimed_transaction_id,
    originalTransactionId: r.original_transaction_id,
    environment: r.environment,
    status: r.status as IapRecord['status'],
    reason: r.reason,
    vipDays: r.vip_days,
    coins: Number(r.coins),
    purchasedAt: msOrNull(r.purchased_at),
    expiresAt: msOrNull(r.expires_at),
    refundedAt: msOrNull(r.refunded_at),
    createdAt: iso(Number(r.created_at)),
  };
}

/** Records with their user's phone and their product's name. */
export const withNames = (db: Db) =>
  db
    .selectFrom('iap_records')
    .leftJoin('users', 'users.id', 'iap_records.user_id')
    .leftJoin('iap_products', (join) =>
      join
        .onRef('iap_products.app', '=', 'iap_records.app')
        .onRef('iap_products.platform', '=', 'iap_records.platform')
        .onRef('iap_products.product_id', '=', 'iap_records.product_id'),
    )
    .selectAll('iap_records')
    .select(['users.phone', 'iap_products.name as product_name']);

export async function loadRecord(db: Db, id: number) {
  const row = await withNames(db).where('iap_records.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('内购记录不存在');
  return row;
}

export interface RecordFilter {
  /** The apps of the call's scope (http/app-scope.ts). */
  apps?: AppScope;
  platform?: string;
  environment?: string;
  status?: string;
  productId?: string;
  phone?: string;
  from?: string;
  to?: string;
}

export function filteredRecords(db: Db, f: RecordFilter) {
  const { from, to } = rangeMs(f);
  let q = db.selectFrom('iap_records');
  if (f.apps) q = q.where(inScope('iap_records.app', f.apps));
  if (f.platform) q = q.where('iap_records.platform', '=', f.platform);
  if (f.environment) q = q.where('iap_records.environment', '=', f.environment);
  if (f.status) q = q.where('iap_records.status', '=', f.status);
  if (f.productId) q = q.where('iap_records.product_id', '=', f.productId);
  if (f.phone) {
    const phone = f.phone;
    q = q.where('iap_records.user_id', 'in', (eb) => eb.selectFrom('users').select('id').where('phone', '=', phone));
  }
  if (from !== undefined) q = q.where('iap_records.created_at', '>=', from);
  if (to !== undefined) q = q.where('iap_records.created_at', '<=', to);
  return q;
}
