import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/dashboard (数据统计): not built yet. */
export default function DashboardPage() {
  return <UnderConstruction explanation="数据统计页面正在开发，完成后可在这里查看用户、订单和收入等统计图表。" />;
}
