import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';

/** What an export endpoint's handler answers: Chinese column headers and the rows, fetched in batches. */
export interface ExportTable<Row = Record<string, unknown>> {
  /** File name without extension (Chinese is fine). */
  filename: string;
  columns: { header: string; key: string; width?: number }[];
  rows: AsyncIterable<Row>;
}

/** Streams an .xlsx to the client as rows arrive, so a million-row export never sits in memory. */
export function sendXlsx(reply: FastifyReply, table: ExportTable, log: FastifyBaseLogger) {
  const stream = new PassThrough();
  const stamp = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
  const name = `${table.filename}-${stamp}.xlsx`;
  reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .header('cache-control', 'no-store');
  (async () => {
    const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: false, useSharedStrings: false });
    const sheet = workbook.addWorksheet(table.filename);
    sheet.columns = table.columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 18 }));
    for await (const row of table.rows) sheet.addRow(row).commit();
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
