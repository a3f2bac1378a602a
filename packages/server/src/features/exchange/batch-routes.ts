import { batchRoute } from '../../http/batch';
import { defineRoutes } from '../../http/route';
import items from './item-routes';
import records from './record-routes';

/** 兑换记录 and 兑换商品's batch actions: each record or item acted on by the single action, on its own. */
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
  '/api/exchange/item/update/enabled/batch': {
    ...batchRoute(items, '/api/exchange/item/update'),
    message: '批量上下架已处理',
  },
});
