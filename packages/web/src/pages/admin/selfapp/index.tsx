import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/selfapp (自家应用): not built yet. */
export default function SelfappPage() {
  return <UnderConstruction explanation="自家应用页面正在开发，完成后可在这里维护需要推广的公司其他应用。" />;
}
