import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/order (订单管理): not built yet. */
export default function OrderPage() {
  return <UnderConstruction explanation="订单管理页面正在开发，完成后可在这里查询订单和处理退款。" />;
}
