import { appScope } from '../../http/app-scope';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { defineRoutes } from '../../http/route';
import { chartFigures } from './charts';
import { cardFigures } from './queries';
import { sumCards, sumCharts } from './scope';

/**
 * Answers are kept this long in this process: the figures come from counters the triggers keep,
 * so computing them is cheap, and keeping them makes a busy dashboard cost nothing at all.
 */
export const MAX_AGE_MS = 60_000;
/** A refresh asked for sooner than this after the last computation gets the kept figures. */
const MIN_REFRESH_MS = 5_000;

/** Kept answers per database (tests run several servers in one process), by what was asked. */
const keptFor = new WeakMap<object, Map<string, { at: number; value: unknown }>>();

async function keptAnswer<T>(
  db: object,
  key: string,
  refresh: boolean | undefined,
  compute: (now: number) => Promise<T>,
) {
  const now = Date.now();
  let answers = keptFor.get(db);
  if (!answers) {
    answers = new Map();
    keptFor.set(db, answers);
  }
  let kept = answers.get(key);
  const age = kept ? now - kept.at : Number.POSITIVE_INFINITY;
  if (!kept || age >= MAX_AGE_MS || (refresh && age >= MIN_REFRESH_MS)) {
    kept = { at: now, value: await compute(now) };
    answers.set(key, kept);
  }
  return { value: kept.value as T, generatedAt: new Date(kept.at).toISOString(), maxAgeSeconds: MAX_AGE_MS / 1000 };
}

type Kept<T> = { value: T; generatedAt: string; maxAgeSeconds: number };

/**
 * The figures of the call's scope: all apps' (the counters kept for all), one app's, or the sum of
 * the apps an operator is limited to (scope.ts), each of those kept as when it is chosen; then the
 * answer is as old as its oldest part.
 */
async function scopedAnswer<T>(
  ctx: RequestContext,
  app: string | undefined,
  answer: (app: string | undefined) => Promise<Kept<T>>,
  sum: (values: T[]) => T,
): Promise<Kept<T>> {
  const apps = appScope(ctx, app);
  if (apps === undefined || apps.length === 1) return answer(apps?.[0]);
  if (apps.length === 0) throw fail.forbidden('你的角色没有可查看数据的应用，请联系超级管理员');
  const parts = await Promise.all(apps.map((one) => answer(one)));
  const oldest = parts.reduce((a, b) => (b.generatedAt < a.generatedAt ? b : a));
  return { ...oldest, value: sum(parts.map((p) => p.value)) };
}

export default defineRoutes({
  '/api/dashboard/fetch/cards': {
    handler: async (input, ctx) => {
      const { value, ...age } = await scopedAnswer(
        ctx,
        input.app,
        (app) => keptAnswer(ctx.db, `cards.${app ?? ''}`, input.refresh, (now) => cardFigures(ctx.db, now, app)),
        sumCards,
      );
      return { cards: value, ...age };
    },
  },
  '/api/dashboard/fetch/charts': {
    handler: async (input, ctx) => {
      const { value, ...age } = await scopedAnswer(
        ctx,
        input.app,
        (app) =>
          keptAnswer(ctx.db, `charts.${input.range}.${app ?? ''}`, input.refresh, (now) =>
            chartFigures(ctx.db, input.range, now, app),
          ),
        sumCharts,
      );
      return { ...value, ...age };
    },
  },
});
