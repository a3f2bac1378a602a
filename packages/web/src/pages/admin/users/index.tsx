import { UnderConstruction } from '../../../components/UnderConstruction';

/** /admin/admin/users (用户管理): not built yet. */
export default function UsersPage() {
  return <UnderConstruction explanation="用户管理页面正在开发，完成后可在这里搜索、查看、封禁用户和设置管理员。" />;
}
