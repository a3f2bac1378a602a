import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 内购商品's batch actions: each product enabled or disabled by the single update, on its own. */
export default defineRoutes({
  '/api/iap/update/enabled/batch': { ...batchRoute(single, '/api/iap/update'), message: '批量启用/停用已处理' },
});
