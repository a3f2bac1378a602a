import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import records from './record-routes';

/** 兑换记录's batch actions: each record shipped or cancelled by the single action, on its own. */
export default defineRoutes({
  '/api/exchange/record/ship/batch': {
    ...batchRoute(records, '/api/exchange/record/ship', (id, index, { carrier, trackingNos }) => ({
      id,
      carrier,
      trackingNo: (trackingNos as string[])[index],
    })),
    message: '批量发货已处理',
  },
  '/api/exchange/record/cancel/batch': {
    ...batchRoute(records, '/api/exchange/record/cancel'),
    message: '批量取消已处理',
  },
});
