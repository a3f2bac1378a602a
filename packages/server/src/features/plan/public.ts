import type { Db } from '../../db/index';

/* The plan feature's public module: what other features (order) may read of plans. */

/** A plan by id, whole: an order copies its name, price, days and coins when it is made. */
export function findPlan(db: Db, id: number) {
  return db.selectFrom('plans').selectAll().where('id', '=', id).executeTakeFirst();
}
