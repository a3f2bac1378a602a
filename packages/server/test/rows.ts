import type { Db } from '../src/db/index';

/**
 * A physical item of the coin shop written straight to the database, for tests that need
 * redemptions to count (the dashboard's cards, the bell's to-dos, export order) without the shop's calls.
 */
export function insertPhysicalItem(db: Db, name: string, now = Date.now()) {
  return db
    .insertInto('exchange_items')
    .values({
      app: 'tailor',
      name,
      image: '',
      description: '',
      kind: 'physical',
      value: 0,
      cost_coins: 10,
      stock: null,
      per_user_limit: 0,
      starts_at: null,
      ends_at: null,
      sort: 0,
      enabled: 1,
      created_at: now,
      updated_at: now,
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}
