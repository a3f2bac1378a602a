import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 应用管理's batch action: each app enabled or disabled by the single update, on its own. */
export default defineRoutes({
  '/api/apps/update/enabled/batch': { ...batchRoute(single, '/api/apps/update'), message: '批量启用/停用已处理' },
});
