import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import single from './routes';

/** 帮助文章's batch actions: each article published or unpublished by the single action, on its own. */
export default defineRoutes({
  '/api/help/publish/batch': { ...batchRoute(single, '/api/help/publish'), message: '批量发布已处理' },
  '/api/help/unpublish/batch': { ...batchRoute(single, '/api/help/unpublish'), message: '批量下线已处理' },
});
