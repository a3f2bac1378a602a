import { DownOutlined } from '@ant-design/icons';
import { formatDateTime } from '@appdesk/contract/format';
import type { AdminUser, ApiOutput } from '@appdesk/contract/types';
import { App, Button, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { lazyExport } from '../../../components/lazyPage';
import { OpenedOnce } from '../../../components/OpenedOnce';
import { untilSettled } from '../../../components/writes';
import { useGrants } from '../../../state/grants';
import { userStore } from '../../../state/session';
import { useStore } from '../../../state/store';
import type { Confirmed } from './ReasonModal';

// Every row has this menu; its dialogs load when first asked for.
const ReasonModal = lazyExport(() => import('./ReasonModal'), 'ReasonModal');
const ResetResultModal = lazyExport(() => import('./ResetPassword'), 'ResetResultModal');

type Asking = 'block' | 'unblock' | 'logout' | 'reset';
type Reset = ApiOutput<'/api/users/reset/password'>;

/** What each confirmation says; `duration` asks how long a block lasts. */
const asks: Record<Asking, { title: string; okText: string; duration?: boolean; says: (name: string) => string }> = {
  block: {
    title: '封禁用户',
    okText: '封禁',
    duration: true,
    says: (name) => `封禁 ${name} 后，其所有登录会话立即失效，封禁期间无法登录。`,
  },
  unblock: { title: '解除封禁', okText: '解封', says: (name) => `解除 ${name} 的封禁后，用户可以重新登录。` },
  logout: {
    title: '强制下线',
    okText: '强制下线',
    says: (name) => `${name} 的所有登录会话将立即失效，需要重新登录。账号不受其他影响。`,
  },
  reset: {
    title: '重置密码',
    okText: '重置',
    says: (name) => `将为 ${name} 生成新的初始密码（只显示一次），其所有登录会话立即失效，下次登录须先修改密码。`,
  },
};

/**
 * A user's actions under one 更多 menu (rows: a link; the drawer: a button): 调整金币, 封禁 or 解封,
 * 强制下线, 重置密码 and the admin flag. The dangerous ones ask for a reason (and a block for a
 * duration) before anything is sent; the reason goes to the operation log. Each is listed only for
 * an operator its endpoint's permission allows; with none, there is no menu.
 */
export function UserMenu({
  user,
  onAdjustCoins,
  compact,
}: {
  user: AdminUser;
  onAdjustCoins?: (user: AdminUser) => void;
  compact?: boolean;
}) {
  const { modal } = App.useApp();
  const { canCall } = useGrants();
  const me = useStore(userStore, (s) => s.currentUser?.id);
  const self = me === user.id;
  const [asking, setAsking] = useState<Asking | null>(null);
  const [resetResult, setResetResult] = useState<Reset | null>(null);
  const done = () => setAsking(null);

  const block = useApiAction('/api/users/block', {
    success: ({ user: u }) => ({
      title: u.blockedUntil ? `已封禁 ${u.name} 至 ${formatDateTime(u.blockedUntil)}` : `已封禁 ${u.name}`,
      description: '其登录会话已全部失效',
    }),
  });
  const unblock = useApiAction('/api/users/unblock', {
    success: ({ user: u }) => ({ title: `已解除 ${u.name} 的封禁` }),
  });
  const logout = useApiAction('/api/users/logout/all', {
    success: ({ revoked }) => ({ title: `已强制 ${user.name} 下线`, description: `结束了 ${revoked} 个登录会话` }),
  });
  const reset = useApiAction('/api/users/reset/password', {
    success: () => ({ title: `已重置 ${user.name} 的密码`, description: '其登录会话已全部失效' }),
  });
  const setAdmin = useApiAction('/api/users/update/admin', {
    success: ({ user: u }) => ({
      title: u.isAdmin ? `已将 ${u.name} 设为管理员` : `已取消 ${u.name} 的管理员身份`,
    }),
  });
  const pending = block.isPending || unblock.isPending || logout.isPending || reset.isPending;

  const confirmed = ({ reason, until }: Confirmed) => {
    const id = user.id;
    if (asking === 'block') block.mutate({ id, reason, until }, { onSuccess: done });
    if (asking === 'unblock') unblock.mutate({ id, reason }, { onSuccess: done });
    if (asking === 'logout') logout.mutate({ id, reason }, { onSuccess: done });
    if (asking === 'reset') {
      const shown = (answer: Reset) => {
        done();
        setResetResult(answer);
      };
      reset.mutate({ id, reason }, { onSuccess: shown });
    }
  };

  const askAdmin = (isAdmin: boolean) =>
    modal.confirm({
      title: isAdmin ? '设为管理员' : '取消管理员',
      content: isAdmin
        ? `确定将 ${user.name} 设为管理员吗？设为管理员后可以登录本后台，但在「操作员管理」中分配角色之前看不到任何内容。`
        : `确定取消 ${user.name} 的管理员身份吗？其全部角色将被收回，后台登录会话立即失效。`,
      okText: '确定',
      cancelText: '取消',
      onOk: () => untilSettled(setAdmin.mutate, { id: user.id, isAdmin }),
    });

  const why = (text: string) => (self ? `${text}（不能对自己操作）` : text);
  const accountItems = [
    ...(onAdjustCoins && canCall('/api/users/update/coins') ? [{ key: 'coins', label: '调整金币' }] : []),
    ...(!canCall('/api/users/block')
      ? []
      : user.status === 'blocked'
        ? [{ key: 'unblock', label: '解除封禁' }]
        : [{ key: 'block', label: why('封禁'), danger: true, disabled: self }]),
    ...(canCall('/api/users/logout/all') ? [{ key: 'logout', label: why('强制下线'), disabled: self }] : []),
    ...(canCall('/api/users/reset/password')
      ? [{ key: 'reset', label: why('重置密码'), danger: true, disabled: self }]
      : []),
  ];
  const adminItems = !canCall('/api/users/update/admin')
    ? []
    : user.isAdmin
      ? [{ key: 'unset-admin', label: why('取消管理员'), disabled: self }]
      : [{ key: 'set-admin', label: '设为管理员' }];
  const items: MenuProps['items'] = [
    ...accountItems,
    ...(accountItems.length && adminItems.length ? [{ type: 'divider' as const }] : []),
    ...adminItems,
  ];
  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'coins') onAdjustCoins?.(user);
    else if (key === 'set-admin' || key === 'unset-admin') askAdmin(key === 'set-admin');
    else setAsking(key as Asking);
  };

  const ask = asking ? asks[asking] : null;
  if (items.length === 0) return null;
  return (
    <>
      <Dropdown menu={{ items, onClick }} trigger={['click']}>
        <Button
          type={compact ? 'link' : 'default'}
          size={compact ? 'small' : 'middle'}
          aria-label={compact ? `更多操作：${user.name}` : '更多操作'}
        >
          {compact ? '更多' : '更多操作'} <DownOutlined aria-hidden />
        </Button>
      </Dropdown>
      <OpenedOnce open={ask !== null}>
        <ReasonModal
          open={ask !== null}
          title={ask ? `${ask.title} - ${user.name}` : ''}
          description={ask?.says(user.name) ?? ''}
          okText={ask?.okText ?? '确定'}
          duration={ask?.duration}
          pending={pending}
          onCancel={done}
          onSubmit={confirmed}
        />
      </OpenedOnce>
      <OpenedOnce open={resetResult !== null}>
        <ResetResultModal result={resetResult} onClose={() => setResetResult(null)} />
      </OpenedOnce>
    </>
  );
}
