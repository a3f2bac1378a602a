import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/a11t (键值配置): not built yet. */
export default function A11tPage() {
  return <UnderConstruction explanation="键值配置页面正在开发，完成后可在这里维护 App 的远程配置项。" />;
}
