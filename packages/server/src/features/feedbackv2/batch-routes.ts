import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 反馈工单's batch actions: each thread closed or replied to by the single action, on its own. */
export default defineRoutes({
  '/api/feedbackv2/close/batch': { ...batchRoute(single, '/api/feedbackv2/close'), message: '批量关闭已处理' },
  '/api/feedbackv2/reply/batch': { ...batchRoute(single, '/api/feedbackv2/reply'), message: '批量回复已处理' },
});
