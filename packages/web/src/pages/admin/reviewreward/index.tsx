import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/reviewreward (好评奖励): not built yet. */
export default function ReviewrewardPage() {
  return <UnderConstruction explanation="好评奖励页面正在开发，完成后可在这里审核好评截图并发放奖励。" />;
}
