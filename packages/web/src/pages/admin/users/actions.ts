import type { AdminUser } from '@appdesk/contract/types';
import { useApiAction } from '../../../api/hooks';
import { untilSettled } from '../../../components/writes';

type Subject = Pick<AdminUser, 'id'>;

/**
 * 封禁 / 解封 / 设为管理员 / 取消管理员, each followed by a success notice naming the user and a
 * refresh of the users page (list, tab counts, the open drawer). Each resolves once it has
 * settled, for the Popconfirm that asks first.
 */
export function useUserActions() {
  const block = useApiAction('/api/users/block', {
    success: ({ user }) => ({ title: `已封禁 ${user.name}，其登录会话已全部失效` }),
  });
  const unblock = useApiAction('/api/users/unblock', {
    success: ({ user }) => ({ title: `已解除 ${user.name} 的封禁` }),
  });
  const setAdmin = useApiAction('/api/users/update/admin', {
    success: ({ user }) => ({
      title: user.isAdmin ? `已将 ${user.name} 设为管理员` : `已取消 ${user.name} 的管理员身份`,
    }),
  });

  return {
    block: (u: Subject) => untilSettled(block.mutate, { id: u.id }),
    unblock: (u: Subject) => untilSettled(unblock.mutate, { id: u.id }),
    setAdmin: (u: Subject, isAdmin: boolean) => untilSettled(setAdmin.mutate, { id: u.id, isAdmin }),
  };
}
