import { Code } from '@appdesk/contract/codes';
import type { AdminUser } from '@appdesk/contract/types';
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useMemo } from 'react';
import { call } from '../../../api/request';

/** Refetches everything the users page shows: list, tab counts, the open drawer. */
export function useRefreshUsers() {
  const queryClient = useQueryClient();
  return useCallback(
    () =>
      queryClient.invalidateQueries({
        predicate: (query) => typeof query.queryKey[0] === 'string' && query.queryKey[0].startsWith('/api/users/'),
      }),
    [queryClient],
  );
}

type Subject = Pick<AdminUser, 'id' | 'name'>;

/** 封禁 / 解封 / 设为管理员 / 取消管理员, each followed by a success notice and a refresh. */
export function useUserActions() {
  const { notification } = App.useApp();
  const refresh = useRefreshUsers();

  const run = useCallback(
    async (done: string, send: () => Promise<{ code: number }>): Promise<boolean> => {
      try {
        const res = await send();
        if (res.code !== Code.OK) return false;
        notification.success({ title: done });
        await refresh();
        return true;
      } catch {
        // The request client already showed the error.
        return false;
      }
    },
    [notification, refresh],
  );

  return useMemo(
    () => ({
      block: (u: Subject) =>
        run(`已封禁 ${u.name}，其登录会话已全部失效`, () => call('/api/users/block', { id: u.id })),
      unblock: (u: Subject) => run(`已解除 ${u.name} 的封禁`, () => call('/api/users/unblock', { id: u.id })),
      setAdmin: (u: Subject, isAdmin: boolean) =>
        run(isAdmin ? `已将 ${u.name} 设为管理员` : `已取消 ${u.name} 的管理员身份`, () =>
          call('/api/users/update/admin', { id: u.id, isAdmin }),
        ),
    }),
    [run],
  );
}
