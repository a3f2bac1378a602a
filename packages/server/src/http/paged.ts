import { type ApiOutput, type ApiPath, type EndpointDef, type Endpoints, fields } from '@appdesk/contract';
import { channels, platforms } from '@appdesk/contract/constants';
import type { z } from 'zod';
import { pageAnswer, pageOf, type Total } from '../db/paging';
import { type ExportTable, exportTable } from './export';
import type { ContextFor, RouteDef } from './route';

/** A list endpoint's parsed input. */
export type InputOf<P extends ApiPath> = z.output<(Endpoints[P] & EndpointDef)['input']>;
type ItemOf<P extends ApiPath> = ApiOutput<P> extends { list: (infer V)[] } ? V : never;

/** A select that can be cut into pages (a Kysely select, or a feature's own two-step page). */
export interface Pageable<Row> {
  limit(n: number): { offset(n: number): { execute(): Promise<Row[]> } };
}

/**
 * A paged admin list, declared once: its `fetch/page` handler and its export both come from it,
 * so the file holds the rows the list shows, filtered and ordered the same way.
 */
export interface PagedList<P extends ApiPath, Row> {
  /** The filtered rows, selected and in the list's order (ending with the id, so the order is total). */
  rows(input: InputOf<P>, ctx: ContextFor<P>): Pageable<Row>;
  /** The filter's total (a kept count when unfiltered, else counted). */
  total(input: InputOf<P>, ctx: ContextFor<P>): Promise<Total>;
  /** The rows as the list answers them. */
  present(rows: Row[], ctx: ContextFor<P>): ItemOf<P>[] | Promise<ItemOf<P>[]>;
}

/** A list route that also knows how to walk its whole result for an export. */
export type PagedRoute<P extends ApiPath> = RouteDef<P> & { walk: Walk<P> };
type Walk<P extends ApiPath> = (
  input: InputOf<P>,
  ctx: ContextFor<P>,
  page: number,
  size: number,
) => Promise<ItemOf<P>[]>;

/** The `fetch/page` handler of a list: one page of presented rows and the filter's total. */
export function pagedRoute<P extends ApiPath, Row>(_path: P, list: PagedList<P, Row>): PagedRoute<P> {
  return {
    handler: async (input, ctx) => {
      const { page, size } = input as { page: number; size: number };
      const { rows, ...total } = await pageOf(list.rows(input, ctx), list.total(input, ctx), page, size);
      return pageAnswer(await list.present(rows, ctx), total, page, size) as never;
    },
    // An export reads the same select page by page, without counting.
    walk: async (input, ctx, page, size) =>
      list.present(
        await list
          .rows(input, ctx)
          .limit(size)
          .offset(page * size)
          .execute(),
        ctx,
      ),
  };
}

/**
 * A list whose page handler is its own (a two-step page by ids, extra per-page reads): its export
 * walks it through that handler, page by page, so the file still holds what the list shows.
 */
export function pagedHandler<P extends ApiPath>(_path: P, route: RouteDef<P>): PagedRoute<P> {
  return {
    ...route,
    walk: async (input, ctx, page, size) => {
      const answer = await route.handler({ ...input, page, size, exactTotal: false } as InputOf<P>, ctx);
      return (answer as { list: ItemOf<P>[] }).list;
    },
  };
}

/** How many rows an export reads at a time. */
const BATCH = 1000;

/** An export's file name and columns; a function of the call's context when a cell needs it (an app's name). */
type ExportLayout<P extends ApiPath> = Omit<ExportTable<ItemOf<P>>, 'rows'>;

/**
 * The export of a list (its contract entry is `listExport` of the list's): the list's whole
 * filtered result in its order, presented by its presenter, as spreadsheet rows under `columns`'
 * Chinese headers; route.ts writes its operation-log row. The batches are the list's own pages:
 * deep ones are OFFSET reads, fine for the lists exported this way (the large tables, users,
 * orders, coin records, the logs, walk their sort index by seek: export.ts `exportRows`).
 */
export function listExport<P extends ApiPath>(
  list: PagedRoute<P>,
  table: ExportLayout<P> | ((ctx: ContextFor<P>) => ExportLayout<P>),
): { handler(input: unknown, ctx: ContextFor<P>): Promise<ExportTable> } {
  return {
    handler: async (input, ctx) => {
      const filter = input as InputOf<P>;
      // Cells may name apps (ctx.apps.nameOf, which reads the loaded list): load it first.
      await ctx.apps.all();
      const layout = typeof table === 'function' ? table(ctx) : table;
      async function* rows() {
        for (let page = 0; ; page++) {
          const views = await list.walk(filter, ctx, page, BATCH);
          yield* views;
          if (views.length < BATCH) return;
        }
      }
      return exportTable({ ...layout, rows: rows() });
    },
  };
}

type Words = readonly { value: string; label: string }[];

/**
 * A code's Chinese word, from a value/label list or a contract schema (`worded`, `choice`):
 * 'pending' → 待处理 (an unknown code stays as it is).
 */
export function wordsOf(source: z.ZodType | Words): (value: string | null) => string {
  let current = source as unknown as { _zod: { def: { innerType?: unknown } } };
  let labels: Words | undefined = Array.isArray(source) ? source : fields.valueWords.get(current as never)?.labels;
  while (!labels && current._zod.def.innerType) {
    current = current._zod.def.innerType as typeof current;
    labels = fields.valueWords.get(current as never)?.labels;
  }
  const word = new Map((labels ?? []).map((l) => [l.value, l.label]));
  return (value) => (value === null ? '' : (word.get(value) ?? value));
}

export const yesNo = (value: boolean) => (value ? '是' : '否');

/** The words of the codes many lists show (an app's name is data: ctx.apps.nameOf). */
export const channelWord = wordsOf(channels);
export const platformWord = wordsOf(platforms);
