import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 推广应用's batch actions: each app enabled or disabled by the single update, on its own. */
export default defineRoutes({
  '/api/selfapp/update/enabled/batch': { ...batchRoute(single, '/api/selfapp/update'), message: '批量启用/停用已处理' },
});
