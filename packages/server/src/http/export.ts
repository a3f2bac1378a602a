import { PassThrough } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';

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
 * Walks a query in id order, `batch` rows at a time, so exports read the whole filtered result
 * without OFFSET scans, and turns each row into a spreadsheet row. `fetch(afterId, limit)` must
 * answer rows with id > afterId, ascending.
 */
export async function* exportRows<T extends { id: number }, R>(
  fetch: (afterId: number, limit: number) => Promise<T[]>,
  present: (row: T) => R,
  batch = 1000,
): AsyncGenerator<R> {
  let after = 0;
  for (;;) {
    const rows = await fetch(after, batch);
    for (const row of rows) yield present(row);
    if (rows.length < batch) return;
    after = rows[rows.length - 1].id;
  }
}
