import { defineRoutes } from '../../http/route';

/** The header bell: every feature's notice source (features/<f>/notices.ts), newest first. */
export default defineRoutes({
  '/api/notices/fetch': {
    handler: async (_input, ctx) => {
      const lists = await Promise.all(ctx.noticeSources.map((source) => source(ctx)));
      return lists.flat().sort((a, b) => b.datetime.localeCompare(a.datetime));
    },
  },
});
