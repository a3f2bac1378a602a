import { type CreateTableBuilder, type Kysely, sql } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/** Epoch-millisecond columns: 64-bit on PostgreSQL (int4 overflows in 1970 + 24 days). */
export function ms(dialect: Dialect) {
  return dialect === 'postgres' ? ('bigint' as const) : ('integer' as const);
}

/** Adds the auto-increment integer primary key `id`. */
export function pk<T extends string>(table: CreateTableBuilder<T, never>, dialect: Dialect) {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/**
 * A count the database keeps: row `name` of `row_counts` holds how many rows of `table` match
 * `where` (written for a row alias: `(row) => \`${row}.status = 'blocked'\``), maintained by
 * triggers in the same transaction as every insert, delete and update of `columns`. Lists read
 * it instead of counting millions of rows per request.
 */
export async function keepCount(
  db: Kysely<unknown>,
  dialect: Dialect,
  count: { name: string; table: string; where?: (row: 'new' | 'old') => string; columns?: string[] },
): Promise<void> {
  const { name, table } = count;
  const when = count.where ?? (() => 'true');
  const id = `kept_${name.replace(/\W/g, '_')}`;
  await sql
    .raw(`insert into row_counts (name, n) select '${name}', count(*) from ${table} as "new" where ${when('new')}`)
    .execute(db);
  const add = (delta: string) => `update row_counts set n = n + ${delta} where name = '${name}'`;
  const changed = `(${when('new')}) <> (${when('old')})`;
  const delta = `case when ${when('new')} then 1 else -1 end`;
  if (dialect === 'sqlite') {
    await sql
      .raw(`create trigger ${id}_insert after insert on ${table} when ${when('new')} begin ${add('1')}; end`)
      .execute(db);
    await sql
      .raw(`create trigger ${id}_delete after delete on ${table} when ${when('old')} begin ${add('-1')}; end`)
      .execute(db);
    if (count.columns?.length) {
      await sql
        .raw(
          `create trigger ${id}_update after update of ${count.columns.join(', ')} on ${table}
           when ${changed} begin ${add(delta)}; end`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `create function ${id}() returns trigger language plpgsql as $$ begin
        if tg_op = 'INSERT' then if ${when('new')} then ${add('1')}; end if;
        elsif tg_op = 'DELETE' then if ${when('old')} then ${add('-1')}; end if;
        elsif ${changed} then ${add(delta)}; end if;
        return null;
      end $$`,
    )
    .execute(db);
  const update = count.columns?.length ? ` or update of ${count.columns.join(', ')}` : '';
  await sql
    .raw(`create trigger ${id} after insert or delete${update} on ${table} for each row execute function ${id}()`)
    .execute(db);
}
