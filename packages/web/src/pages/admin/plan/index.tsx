import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/plan (会员套餐): not built yet. */
export default function PlanPage() {
  return <UnderConstruction explanation="会员套餐页面正在开发，完成后可在这里配置 VIP 套餐的价格和时长。" />;
}
