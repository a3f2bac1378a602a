import { type Permission, permissionPages } from '@appdesk/contract/permissions';
import { Empty } from 'antd';
import type { ReactNode } from 'react';
import { useGrants } from '../../state/grants';

/**
 * A console page only for an operator who may read it (`<page>.read`): otherwise a word of why in
 * its place, and none of its calls, each of which the server would refuse. Pages outside the
 * permission catalog (个人中心, 消息中心) are every operator's. Waits for the grants first.
 */
export function PageGuard({
  page,
  label,
  pending,
  children,
}: {
  page: string;
  label: string;
  pending: ReactNode;
  children: ReactNode;
}) {
  const { loaded, can } = useGrants();
  if (!(page in permissionPages)) return children;
  if (!loaded) return pending;
  if (can(`${page}.read` as Permission)) return children;
  return (
    <Empty
      style={{ marginTop: 64 }}
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={`你没有「${label}」的权限。需要时请联系超级管理员，在「操作员管理」中为你分配包含它的角色。`}
    />
  );
}
