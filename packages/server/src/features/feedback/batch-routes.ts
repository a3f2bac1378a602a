import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 意见反馈's batch actions: each feedback handled or replied to by the single action, on its own. */
export default defineRoutes({
  '/api/feedback/handle/batch': { ...batchRoute(single, '/api/feedback/handle'), message: '批量标记已处理' },
  '/api/feedback/reply/batch': { ...batchRoute(single, '/api/feedback/reply'), message: '批量回复已处理' },
});
