import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/exchangerecord (兑换记录): not built yet. */
export default function ExchangerecordPage() {
  return <UnderConstruction explanation="兑换记录页面正在开发，完成后可在这里查看和处理用户的兑换记录。" />;
}
