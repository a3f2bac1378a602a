import { Alert } from 'antd';
import { useApiQuery } from '../../api/hooks';

/**
 * An operator made with 设为管理员 (or whose roles were all taken away) may enter the console and
 * sees nothing: the console says why and whom to ask, above whatever page is open.
 */
export function NoRolesNotice() {
  // The same query as useGrants (state/grants.ts): one request, shared.
  const me = useApiQuery('/api/operators/fetch/me', {});
  if (!me.data || me.data.permissions.length > 0) return null;
  return (
    <Alert
      style={{ marginBottom: 12 }}
      type="warning"
      showIcon
      banner
      title="你的账号还没有分配角色"
      description="管理员账号已开通，但还没有任何权限，所以看不到菜单和数据。请联系超级管理员在「系统 → 操作员管理」中为你分配角色，分配后刷新页面即可。"
    />
  );
}
