import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 好评奖励's batch actions: each claim approved or rejected by the single action, on its own (coins once per claim). */
export default defineRoutes({
  '/api/reviewreward/approve/batch': { ...batchRoute(single, '/api/reviewreward/approve'), message: '批量通过已处理' },
  '/api/reviewreward/reject/batch': { ...batchRoute(single, '/api/reviewreward/reject'), message: '批量驳回已处理' },
});
