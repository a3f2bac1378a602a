import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/iaprecord (内购记录): not built yet. */
export default function IaprecordPage() {
  return <UnderConstruction explanation="内购记录页面正在开发，完成后可在这里查看内购收据和发放情况。" />;
}
