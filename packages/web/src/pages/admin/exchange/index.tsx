import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/exchange (兑换商品): not built yet. */
export default function ExchangePage() {
  return <UnderConstruction explanation="兑换商品页面正在开发，完成后可在这里配置可用金币兑换的商品和库存。" />;
}
