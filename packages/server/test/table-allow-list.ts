import type { Allowance } from './table-ownership';

/**
 * The declared reach-ins: code that names a table another feature owns (table-ownership.ts). Anything
 * else goes through the owner's public module (features/<f>/public.ts). An entry that no longer
 * covers anything fails the test too, so the list stays what the code does.
 */
export const allowList: Allowance[] = [
  {
    path: 'features/dashboard/',
    reads: '*',
    why: 'the dashboard is a read model: it counts other features’ rows (by triggers and queries) and writes only its own stat_* tables',
  },
  {
    path: 'features/files/uses.ts',
    reads: ['versions', 'images', 'sound_effects', 'feedback_images', 'feedback_post_images'],
    why: 'a read model: 文件管理 shows where each stored file is used and refuses to remove a used one',
  },
  {
    path: 'storage/pending.ts',
    writes: ['pending_uploads'],
    why: 'the upload path’s journal of objects being written; storage is its one writer, the files feature keeps its migration',
  },
  {
    path: 'ops/sweep.ts',
    reads: ['pending_uploads'],
    why: 'the storage sweep spares objects an upload is still writing',
  },
  {
    path: 'features/iaprecord/queries.ts',
    reads: ['iap_products'],
    why: 'the purchase-record list joins the product for its name (a read in one query, filtered and sorted with it)',
  },
  {
    path: 'features/order/migrations/202611230520_orders.ts',
    reads: ['plans'],
    why: 'orders.plan_id is a foreign key to plans.id',
  },
];
