import { defineRoutes } from '../../http/route';

export default defineRoutes({
  '/api/operators/fetch/me': {
    handler: async (_input, ctx) => {
      // Admin calls always carry their operator's grants (http/route.ts).
      const grants = ctx.grants;
      if (!grants) throw new Error('an admin call without grants');
      return {
        permissions: [...grants.permissions],
        apps: grants.apps ? [...grants.apps] : null,
        superAdmin: grants.superAdmin,
      };
    },
  },
});
