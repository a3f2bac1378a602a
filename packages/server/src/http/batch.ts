import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import type { BatchAnswer, BatchItemResult } from '@appdesk/contract/batch';
import { Code } from '@appdesk/contract/codes';
import type { RequestContext } from './context';
import { ApiError } from './errors';
import type { RouteDef, RouteTable } from './route';

/**
 * The handler of a batch endpoint (contract `batchEndpoint`): runs the single action's own handler
 * once per id, each in its own transaction with its own operation-log row, so a record that fails
 * (gone, in the wrong state) is reported with the single action's code and message and the others
 * still commit. `itemInput` picks a record's input from the batch's (default: the shared
 * parameters with the record's id); it is checked by the single action's schema like a direct call.
 */
export function batchRoute<S extends ApiPath>(
  routes: RouteTable,
  single: S,
  itemInput: (id: number, index: number, input: Record<string, unknown>) => Record<string, unknown> = (
    id,
    _,
    input,
  ) => ({ ...input, id }),
) {
  const route = routes[single] as RouteDef<ApiPath> | undefined;
  if (!route) throw new Error(`batchRoute: no handler for ${single}`);
  const schema = (endpoints[single] as EndpointDef).input;
  return {
    message: '批量操作已完成',
    handler: async (input: { ids: number[] }, ctx: RequestContext): Promise<BatchAnswer> => {
      const { ids, ...shared } = input;
      const results: BatchItemResult[] = [];
      for (const [index, id] of ids.entries()) {
        const parsed = schema.safeParse(itemInput(id, index, shared));
        if (!parsed.success) {
          results.push({ id, ok: false, code: Code.BAD_INPUT, message: parsed.error.issues[0]?.message });
          continue;
        }
        try {
          await ctx.inTransaction((itemCtx) => route.handler(parsed.data as never, itemCtx as never));
          results.push({ id, ok: true });
        } catch (error) {
          if (error instanceof ApiError) {
            results.push({ id, ok: false, code: error.code, message: error.message });
            continue;
          }
          // A fault (an outage, a bug) is not this record's: the earlier records stay committed, the rest untried.
          ctx.log.error({ err: error, id }, '批量操作中断');
          throw error;
        }
      }
      const succeeded = results.filter((r) => r.ok).length;
      return { results, succeeded, failed: results.length - succeeded };
    },
  };
}
