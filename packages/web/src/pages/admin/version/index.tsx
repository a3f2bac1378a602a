import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/version (版本管理): not built yet. */
export default function VersionPage() {
  return <UnderConstruction explanation="版本管理页面正在开发，完成后可在这里按渠道发布和维护 App 版本。" />;
}
