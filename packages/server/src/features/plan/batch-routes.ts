import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 会员套餐's batch actions: each plan put on or off sale by the single update, on its own. */
export default defineRoutes({
  '/api/plan/update/onsale/batch': { ...batchRoute(single, '/api/plan/update'), message: '批量上下架已处理' },
});
