import { defineRoutes } from '../../http/route';
import { chartFigures } from './charts';
import { cardFigures } from './queries';

/** Card answers are kept this long in this process (the state figures count index ranges). */
export const MAX_AGE_MS = 60_000;
/** A refresh asked for sooner than this after the last computation gets the kept figures. */
const MIN_REFRESH_MS = 5_000;

type Cards = Awaited<ReturnType<typeof cardFigures>>;
/** Per database (tests run several servers in one process). */
const keptFor = new WeakMap<object, { at: number; cards: Cards }>();

export default defineRoutes({
  '/api/dashboard/fetch/cards': {
    handler: async (input, ctx) => {
      const now = Date.now();
      let kept = keptFor.get(ctx.db);
      const age = kept ? now - kept.at : Number.POSITIVE_INFINITY;
      if (!kept || age >= MAX_AGE_MS || (input.refresh && age >= MIN_REFRESH_MS)) {
        kept = { at: now, cards: await cardFigures(ctx.db, now) };
        keptFor.set(ctx.db, kept);
      }
      return { cards: kept.cards, generatedAt: new Date(kept.at).toISOString(), maxAgeSeconds: MAX_AGE_MS / 1000 };
    },
  },
  // Read fresh each time: the counters are kept by triggers, so a year is a few hundred buckets.
  '/api/dashboard/fetch/charts': {
    handler: async (input, ctx) => {
      const now = Date.now();
      return { ...(await chartFigures(ctx.db, input.range, now)), generatedAt: new Date(now).toISOString() };
    },
  },
});
