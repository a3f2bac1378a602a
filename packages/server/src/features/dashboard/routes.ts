import { defineRoutes } from '../../http/route';
import { cardFigures } from './queries';

/** Answers are kept this long in this process: the dashboard reads ranges, never per request. */
export const MAX_AGE_MS = 60_000;
/** A refresh asked for sooner than this after the last computation gets the kept figures. */
const MIN_REFRESH_MS = 5_000;

type Cards = Awaited<ReturnType<typeof cardFigures>>;
let kept: { at: number; cards: Cards } | undefined;

export default defineRoutes({
  '/api/dashboard/fetch/cards': {
    handler: async (input, ctx) => {
      const now = Date.now();
      const age = kept ? now - kept.at : Number.POSITIVE_INFINITY;
      if (!kept || age >= MAX_AGE_MS || (input.refresh && age >= MIN_REFRESH_MS)) {
        kept = { at: now, cards: await cardFigures(ctx.db, now) };
      }
      return { cards: kept.cards, generatedAt: new Date(kept.at).toISOString(), maxAgeSeconds: MAX_AGE_MS / 1000 };
    },
  },
});
