import { z } from 'zod';
import { type EndpointDef, endpoint } from './endpoint';
import { id } from './fields';
import { BATCH_MAX } from './rules';

export { BATCH_MAX };

/** The records a batch acts on: 1 to BATCH_MAX distinct ids, in the order they are handled. */
export const batchIds = z
  .array(id, { error: '所选记录 ID 列表必须是数组' })
  .min(1, { error: '请至少选择一条记录' })
  .max(BATCH_MAX, { error: `一次最多选择 ${BATCH_MAX} 条记录` })
  .refine((ids) => new Set(ids).size === ids.length, { error: '所选记录有重复' })
  .meta({ title: '所选记录 ID 列表' });

/** One record's outcome: ok, or the code and Chinese message its single action would have answered. */
export const batchItemResult = z.object({
  id,
  ok: z.boolean(),
  code: z.number().int().optional(),
  message: z.string().optional(),
});
export type BatchItemResult = z.infer<typeof batchItemResult>;

/** What every batch action answers: each record's outcome in the order given, and the two counts. */
export const batchAnswer = z.object({
  results: z.array(batchItemResult),
  succeeded: z.number().int(),
  failed: z.number().int(),
});
export type BatchAnswer = z.infer<typeof batchAnswer>;

/**
 * A batch of a single action (`single`, its path): `{ ids, ...params }` runs the single action once
 * per id, each in its own transaction and recorded in the operation log as the single action is
 * (one row per record that succeeded), so one record's failure leaves the others done.
 */
export function batchEndpoint<const S extends string, P extends z.ZodRawShape = Record<never, never>>(
  single: S,
  def: EndpointDef & { access: 'admin' },
  spec: {
    summary: string;
    params?: P;
    /** A rule across fields (per-record values line up with `ids`), with its Chinese message. */
    check?: { test: (input: z.output<z.ZodObject<P>> & { ids: number[] }) => boolean; error: string };
    example: { ids: number[] } & Record<string, unknown>;
  },
) {
  if (!def.audit) throw new Error(`${single} records no operation-log row: a batch of it would not either`);
  const input = z.object({ ids: batchIds, ...(spec.params ?? ({} as P)) });
  const check = spec.check;
  if (!def.permission) throw new Error(`${single} names no permission: a batch of it would not either`);
  return endpoint({
    access: 'admin',
    permission: def.permission,
    summary: `${spec.summary}（最多 ${BATCH_MAX} 条，逐条处理，结果列出每条成功或失败的原因）`,
    input: check ? input.refine((v) => check.test(v as never), { error: check.error }) : input,
    output: batchAnswer,
    example: spec.example as never,
    audit: def.audit,
    batchOf: single,
  });
}
