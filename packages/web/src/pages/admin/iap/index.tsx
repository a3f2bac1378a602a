import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/iap (内购商品): not built yet. */
export default function IapPage() {
  return (
    <UnderConstruction explanation="内购商品页面正在开发，完成后可在这里维护 App Store 与 Google Play 的内购商品。" />
  );
}
