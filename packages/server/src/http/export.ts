import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import { type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';

/** A spreadsheet column: its Chinese header and the cell it shows of a presented row. */
export interface ExportColumn<View> {
  header: string;
  width?: number;
  cell(view: View): string | number;
}

/**
 * What an export endpoint's handler answers: the rows, fetched in batches and presented by the
 * same presenter as the page, and the columns that turn each into cells.
 */
export interface ExportTable<View = never> {
  /** File name without extension (Chinese is fine). */
  filename: string;
  columns: ExportColumn<View>[];
  rows: AsyncIterable<View>;
  /** The personal data the file holds in full (e.g. 收货人完整手机号), said in its operation-log row. */
  personalData?: string;
}

/** Declares an export, typing its columns by what its rows' presenter answers. */
export function exportTable<View>(table: ExportTable<View>): ExportTable<never> {
  return table as unknown as ExportTable<never>;
}

/** Streams an .xlsx to the client as rows arrive, so a million-row export never sits in memory. */
export function sendXlsx(reply: FastifyReply, table: ExportTable<unknown>, log: FastifyBaseLogger) {
  const stream = new PassThrough();
  const stamp = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const name = `${table.filename}-${stamp}.xlsx`;
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'no-store');
  (async () => {
    // Loaded by the first export (about 25 MB of memory a server without exports never holds).
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet(table.filename);
    sheet.columns = table.columns.map((c) => ({ header: c.header, width: c.width ?? 18 }));
    for await (const view of table.rows) sheet.addRow(table.columns.map((c) => c.cell(view))).commit();
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => {
    log.error({ err: error }, 'export failed');
    stream.destroy(error as Error);
  });
  return reply.send(stream);
}

/**
 * The order a list shows its rows in, which its export keeps: by `column` then `id` (both
 * qualified, e.g. `orders.amount`, `orders.id`), or by `id` alone, in `direction`. A `nullable`
 * column's nulls come lowest (first ascending, last descending), as the lists show them.
 */
export interface ExportOrder {
  id: string;
  column?: string;
  nullable?: boolean;
  direction: 'asc' | 'desc';
}

/** A list's direction from its `order` input (antd's names; newest first by default). */
export const directionOf = (order: 'ascend' | 'descend' | undefined) => (order === 'ascend' ? 'asc' : 'desc');

type Key = readonly [value: unknown, id: number];

/**
 * One batch of an export: applies to a select the seek past the last row and the list's order, so
 * each batch is one range of the sort's (column, id) index, never an OFFSET scan.
 */
export type ExportBatch = <DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
) => SelectQueryBuilder<DB, TB, O>;

function batchOf(order: ExportOrder, phase: 'byId' | 'values', last: Key | undefined, limit: number): ExportBatch {
  const id = sql.ref(order.id);
  const dir = sql.raw(order.direction);
  const past = sql.raw(order.direction === 'desc' ? '<' : '>');
  const conditions: RawBuilder<unknown>[] = [];
  const terms: RawBuilder<unknown>[] = [];
  if (order.column && phase === 'values') {
    const column = sql.ref(order.column);
    if (order.nullable) conditions.push(sql`${column} is not null`);
    if (last) conditions.push(sql`(${column}, ${id}) ${past} (${last[0]}, ${last[1]})`);
    terms.push(sql`${column} ${dir}`);
  } else {
    if (order.column) conditions.push(sql`${sql.ref(order.column)} is null`);
    if (last) conditions.push(sql`${id} ${past} ${last[1]}`);
  }
  terms.push(sql`${id} ${dir}`);
  const where = conditions.length ? sql<SqlBool>`${sql.join(conditions, sql` and `)}` : sql<SqlBool>`1 = 1`;
  return (query) => terms.reduce((q, term) => q.orderBy(term), query.where(where)).limit(limit);
}

/**
 * Walks a query in the list's order, `batch` rows at a time, so an export reads the whole filtered
 * result in the order the list shows it without OFFSET scans, and turns each row into a
 * spreadsheet row. `fetch(apply)` answers the rows of the feature's filtered select with `apply`
 * applied; `keyOf` reads a row's sort value and id (the value may be null for a nullable column).
 */
export async function* exportRows<T, R>(
  order: ExportOrder,
  fetch: (apply: ExportBatch) => Promise<T[]>,
  keyOf: (row: T) => Key,
  present: (row: T) => R,
  batch = 1000,
): AsyncGenerator<R> {
  // A nullable column is walked in two runs: its nulls by id, and its values by (value, id).
  const phases: ('byId' | 'values')[] = !order.column
    ? ['byId']
    : !order.nullable
      ? ['values']
      : order.direction === 'asc'
        ? ['byId', 'values']
        : ['values', 'byId'];
  for (const phase of phases) {
    let last: Key | undefined;
    for (;;) {
      const rows = await fetch(batchOf(order, phase, last, batch));
      for (const row of rows) yield present(row);
      if (rows.length < batch) break;
      last = keyOf(rows[rows.length - 1]);
    }
  }
}
