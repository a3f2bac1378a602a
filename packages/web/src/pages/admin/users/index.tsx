import { UsergroupAddOutlined, UserOutlined } from '@ant-design/icons';
import type { AdminUser } from '@appdesk/contract/types';
import { Avatar, Button, Tabs, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useMemo, useState } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { lazyExport } from '../../../components/lazyPage';
import { type FilterField, idValue, ListView, timeColumn, useIsMobile, useList } from '../../../components/list';
import { OpenedOnce } from '../../../components/OpenedOnce';
import { useGrants } from '../../../state/grants';
import { PhoneReveal } from './PhoneReveal';
import { type Status, statuses, statusLabels, userBatchPaths, usersList, vipLabels } from './query';
import { SegmentFilters } from './SegmentFilters';
import { StatusTag } from './StatusTag';
import { UserMenu } from './UserMenu';
import { VipText } from './VipText';
import './users.css';

// Opened by the operator, not needed to show the list: loaded when first opened.
const BatchBar = lazyExport(() => import('./BatchBar'), 'BatchBar');
const CoinsModal = lazyExport(() => import('./CoinsModal'), 'CoinsModal');
const GenerateModal = lazyExport(() => import('./GenerateModal'), 'GenerateModal');
const UserDrawer = lazyExport(() => import('./UserDrawer'), 'UserDrawer');

const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '搜索', placeholder: '手机号、昵称或 ID', width: 220 },
  {
    kind: 'select',
    name: 'active',
    label: '活跃',
    width: 130,
    options: [
      { value: '', label: '不限活跃' },
      { value: 'today', label: '今日活跃' },
      { value: '7d', label: '近 7 天活跃' },
      { value: '30d', label: '近 30 天活跃' },
    ],
  },
  {
    kind: 'select',
    name: 'vip',
    label: '会员',
    width: 120,
    options: [
      { value: '', label: '不限会员' },
      ...Object.entries(vipLabels).map(([value, label]) => ({ value, label })),
    ],
  },
  { kind: 'range', name: 'range', label: '注册时间' },
];

/** /admin/admin/users (用户管理): status tabs, search, sortable list, detail drawer and account tools. */
export default function UsersPage() {
  const list = useList(usersList);
  const [generateOpen, setGenerateOpen] = useState(false);
  const [coinsUser, setCoinsUser] = useState<AdminUser | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const detailId = idValue(list.param('detail')) ?? null;
  const { update } = list;
  const mobile = useIsMobile();
  const { canCall } = useGrants();
  const batches = userBatchPaths.some(canCall);
  const setDetail = useCallback((id: number | null) => update({ detail: id ?? undefined }, true), [update]);

  const counts = useApiQuery('/api/users/fetch/page/box', {});

  const status = (list.values.status as Status | undefined) ?? 'all';

  const columns = useMemo<ColumnsType<AdminUser>>(
    () => [
      { title: 'ID', dataIndex: 'id', key: 'id', width: 80 },
      {
        title: '用户',
        key: 'user',
        render: (_, user) => (
          <div className="user-cell">
            <Avatar size={36} src={user.avatar || undefined} icon={<UserOutlined aria-hidden />} alt="" />
            <div className="user-cell-text">
              <Button type="link" className="user-cell-name" onClick={() => setDetail(user.id)}>
                {user.name}
              </Button>
              <span className="list-muted">
                <PhoneReveal id={user.id} masked={user.phone} />
              </span>
            </div>
          </div>
        ),
      },
      { title: '状态', dataIndex: 'status', key: 'status', render: (_, user) => <StatusTag user={user} /> },
      {
        title: '管理员',
        dataIndex: 'isAdmin',
        key: 'isAdmin',
        render: (isAdmin: boolean) =>
          isAdmin ? <Tag color="blue">管理员</Tag> : <span className="list-muted">-</span>,
      },
      {
        title: '金币',
        dataIndex: 'coins',
        key: 'coins',
        align: 'right',
        sorter: true,
        render: (coins: number) => coins.toLocaleString('zh-CN'),
      },
      {
        title: 'VIP 到期',
        dataIndex: 'vipExpiresAt',
        key: 'vipExpiresAt',
        render: (expires: string | null) => <VipText expires={expires} />,
      },
      timeColumn('注册时间', 'createdAt'),
      timeColumn('最近活跃', 'lastActiveAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, user) => (
          <div className="user-row-actions">
            {mobile ? null : <UserMenu user={user} onAdjustCoins={setCoinsUser} compact />}
          </div>
        ),
      },
    ],
    [setDetail, mobile],
  );

  const tabItems = statuses.map((key) => ({
    key,
    label: counts.data ? `${statusLabels[key]} (${counts.data[key].toLocaleString('zh-CN')})` : statusLabels[key],
  }));

  return (
    <>
      <ListView<AdminUser>
        list={list}
        columns={columns}
        rowKey="id"
        onDetail={(user) => setDetail(user.id)}
        fields={fields}
        emptyText="还没有用户。App 用户注册后会出现在这里，也可以点击“生成账号”批量创建。"
        exportPath="/api/users/export"
        exportName="用户"
        header={
          <>
            <Tabs
              activeKey={status}
              items={tabItems}
              onChange={(key) => update({ status: key === 'all' ? undefined : key })}
              className="user-tabs"
            />
            <SegmentFilters values={list.values} update={update} />
            <OpenedOnce open={selected.length > 0}>
              <BatchBar ids={selected} onDone={() => setSelected([])} />
            </OpenedOnce>
          </>
        }
        rowSelection={
          batches
            ? {
                selectedRowKeys: selected,
                preserveSelectedRowKeys: true,
                onChange: (ids) => setSelected(ids as number[]),
              }
            : undefined
        }
        actions={
          canCall('/api/users/generate') ? (
            <Button type="primary" icon={<UsergroupAddOutlined aria-hidden />} onClick={() => setGenerateOpen(true)}>
              生成账号
            </Button>
          ) : null
        }
      />
      <OpenedOnce open={detailId !== null}>
        <UserDrawer id={detailId} onClose={() => setDetail(null)} onAdjustCoins={setCoinsUser} />
      </OpenedOnce>
      <OpenedOnce open={coinsUser !== null}>
        <CoinsModal user={coinsUser} onClose={() => setCoinsUser(null)} />
      </OpenedOnce>
      <OpenedOnce open={generateOpen}>
        <GenerateModal open={generateOpen} onClose={() => setGenerateOpen(false)} />
      </OpenedOnce>
    </>
  );
}
