import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 版本's batch actions: each release published or paused by the single action, on its own. */
export default defineRoutes({
  '/api/version/publish/batch': { ...batchRoute(single, '/api/version/publish'), message: '批量发布已处理' },
  '/api/version/pause/batch': { ...batchRoute(single, '/api/version/pause'), message: '批量暂停已处理' },
});
