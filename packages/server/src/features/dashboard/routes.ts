import { defineRoutes } from '../../http/route';
import { chartFigures } from './charts';
import { cardFigures } from './queries';

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

export default defineRoutes({
  '/api/dashboard/fetch/cards': {
    handler: async (input, ctx) => {
      const { value, ...age } = await keptAnswer(ctx.db, `cards.${input.app ?? ''}`, input.refresh, (now) =>
        cardFigures(ctx.db, now, input.app),
      );
      return { cards: value, ...age };
    },
  },
  '/api/dashboard/fetch/charts': {
    handler: async (input, ctx) => {
      const { value, ...age } = await keptAnswer(
        ctx.db,
        `charts.${input.range}.${input.app ?? ''}`,
        input.refresh,
        (now) => chartFigures(ctx.db, input.range, now, input.app),
      );
      return { ...value, ...age };
    },
  },
});
