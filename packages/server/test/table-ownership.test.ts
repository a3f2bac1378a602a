/**
 * Table ownership is checkable (issue 28): a feature's code names the core tables and its own; a
 * reach-in into another feature's tables outside the declared allow-list fails here. The rules are
 * in table-ownership.ts, the declared reach-ins in table-allow-list.ts. Pure: reads the sources only.
 */
import { describe, expect, it } from 'vitest';
import { allowList } from './table-allow-list';
import { judge, literals, ownership, serverSources } from './table-ownership';

const sources = serverSources();
const planted = (file: string, text: string) => judge([...sources, { file, text }], allowList);
const where = (refs: { file: string; table: string; kind: string }[]) =>
  refs.map((r) => `${r.file} ${r.kind} ${r.table}`);

describe('table ownership', () => {
  it('derives owners from each feature’s tables.ts and the core from CoreDatabase', () => {
    const own = ownership(sources);
    expect(own.problems).toEqual([]);
    expect(own.core.has('users')).toBe(true);
    expect(own.owner.get('orders')).toBe('order');
    expect(own.owner.get('order_events')).toBe('order');
    expect(own.owner.get('vip_records')).toBe('vip');
    expect(own.owner.has('users')).toBe(false);
    // Every feature table the app migrates is owned by some feature: at least the 30 of today.
    expect(own.owner.size).toBeGreaterThanOrEqual(30);
  });

  it('finds no reach-in outside the allow-list, and no allow-list entry that covers nothing', () => {
    const { refused, stale, references } = judge(sources, allowList);
    expect(where(refused)).toEqual([]);
    expect(stale.map((entry) => entry.path)).toEqual([]);
    // The scan sees the declared ones (so an empty result above is not a blind scan).
    expect(where(references)).toContain('storage/pending.ts write pending_uploads');
  });

  it('refuses a planted reach-in: a Kysely write, a raw SQL read, a type, but not a comment', () => {
    const { refused } = planted(
      'features/payment/planted.ts',
      [
        '// orders are paid through the order feature: from orders',
        "export const a = (db) => db.updateTable('orders').set({ status: 'paid' }).execute();",
        `export const b = (db) => sql\`select id from plans where id = \${1}\`.execute(db);`,
        "type Row = Selectable<Database['iap_products']>;",
      ].join('\n'),
    );
    expect(where(refused)).toEqual([
      'features/payment/planted.ts write orders',
      'features/payment/planted.ts read plans',
      'features/payment/planted.ts read iap_products',
    ]);
    expect(refused.map((r) => r.line)).toEqual([2, 3, 4]);
  });

  it('lets a read model read but not write, and plumbing name no feature’s table', () => {
    const dashboard = planted(
      'features/dashboard/planted.ts',
      "db.selectFrom('orders'); db.deleteFrom('orders'); sql`insert into exchange_records values (1)`;",
    );
    expect(where(dashboard.refused)).toEqual([
      'features/dashboard/planted.ts write orders',
      'features/dashboard/planted.ts write exchange_records',
    ]);
    const core = planted('core/planted.ts', "db.selectFrom('exchange_records as r').select('r.id')");
    expect(where(core.refused)).toEqual(['core/planted.ts read exchange_records']);
  });

  it('refuses a table merged into Database outside the feature’s own *Tables', () => {
    const own = ownership([
      ...sources,
      {
        file: 'features/payment/tables.ts',
        text: "declare module '../../db/schema' {\n  interface Database {\n    refunds: RefundsTable;\n  }\n}",
      },
    ]);
    expect(own.problems).toEqual([
      "features/payment/tables.ts: refunds merged into Database outside payment's *Tables",
    ]);
  });

  it('reports an allow-list entry that covers nothing', () => {
    const { stale } = judge(sources, [
      ...allowList,
      { path: 'features/help/queries.ts', reads: ['orders'], why: 'planted' },
    ]);
    expect(stale.map((entry) => entry.path)).toEqual(['features/help/queries.ts']);
  });

  it('reads literals past comments, regular expressions and nested templates', () => {
    const code = `const r = /'[a-z]\\//g; // 'not this'\n/* 'nor this' */ const t = \`a \${f(\`b \${'c'}\`)} d\`; x = 'e';`;
    expect(literals(code).map((p) => p.text)).toEqual(['a ', 'b ', 'c', '', ' d', 'e']);
  });
});
