import { PlusOutlined } from '@ant-design/icons';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Space, Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { AppNames } from '../../../components/admin/appField';
import { type InitialPassword, InitialPasswordModal } from '../../../components/admin/InitialPasswordModal';
import {
  ConfirmLink,
  type FilterField,
  idValue,
  type ListValues,
  ListView,
  timeColumn,
  useList,
} from '../../../components/list';
import { untilSettled } from '../../../components/writes';
import { useCanCall } from '../../../state/grants';
import { userStore } from '../../../state/session';
import { useStore } from '../../../state/store';
import { OperatorEditor } from './OperatorEditor';
import './operators.css';

type Row = ApiOutput<'/api/operators/fetch/page'>['list'][number];

const keys = ['search', 'status', 'roleId'] as const;
const statusField: FilterField = {
  kind: 'select',
  name: 'status',
  label: '状态',
  width: 120,
  options: [
    { value: '', label: '全部' },
    { value: 'normal', label: '正常' },
    { value: 'blocked', label: '已停用' },
  ],
};

function toFilter(values: ListValues) {
  const roleId = idValue(values.roleId);
  const status = values.status === 'normal' || values.status === 'blocked' ? values.status : 'all';
  return { search: values.search ?? '', status, ...(roleId === undefined ? {} : { roleId }) } as const;
}

/** An operator's roles as tags; none yet: they may sign in and see nothing, which the tag says. */
function RoleTags({ operator }: { operator: Row }) {
  if (operator.roles.length === 0) {
    return (
      <Tooltip title="可以登录后台，但分配角色之前看不到任何菜单">
        <Tag color="orange">未分配角色</Tag>
      </Tooltip>
    );
  }
  return (
    <Space size={[4, 4]} wrap>
      {operator.roles.map((r) => (
        <Tag key={r.id} color={r.builtin === 'super' ? 'gold' : 'blue'}>
          {r.name}
        </Tag>
      ))}
    </Space>
  );
}

/** /admin/admin/operators (操作员管理): who may sign in to the console, with which roles, in which apps. */
export default function OperatorsPage() {
  const roles = useApiQuery('/api/operators/fetch/roles', {});
  const fields = useMemo<FilterField[]>(
    () => [
      { kind: 'text', name: 'search', label: '搜索', placeholder: '手机号、昵称或 ID' },
      statusField,
      {
        kind: 'select',
        name: 'roleId',
        label: '角色',
        width: 150,
        options: [
          { value: '', label: '全部' },
          ...(roles.data?.list ?? []).map((r) => ({ value: String(r.id), label: r.name })),
        ],
      },
    ],
    [roles.data],
  );
  const list = useList({ fetchPath: '/api/operators/fetch/page', keys, toFilter });
  const manage = useCanCall('/api/operators/make');
  const me = useStore(userStore, (s) => s.currentUser?.id);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [shown, setShown] = useState<{ title: string; result: InitialPassword } | null>(null);
  const disable = useApiAction('/api/operators/disable');
  const enable = useApiAction('/api/operators/enable');
  const reset = useApiAction('/api/operators/reset/password');

  const columns = useMemo<ColumnsType<Row>>(
    () => [
      {
        title: '操作员',
        key: 'name',
        render: (_, o) => (
          <Space orientation="vertical" size={0}>
            <span>
              {o.nickname || o.phone}
              {o.id === me ? <Tag style={{ marginInlineStart: 6 }}>我</Tag> : null}
            </span>
            <span className="list-muted">{o.phone}</span>
          </Space>
        ),
      },
      { title: '角色', key: 'roles', render: (_, o) => <RoleTags operator={o} /> },
      {
        title: '可见应用',
        dataIndex: 'apps',
        key: 'apps',
        render: (apps: string[] | null) =>
          apps === null ? <span className="list-muted">按角色</span> : <AppNames codes={apps} />,
      },
      {
        title: '状态',
        key: 'status',
        render: (_, o) => (
          <Space size={4} wrap>
            {o.status === 'blocked' ? <Tag color="red">已停用</Tag> : <Tag color="green">正常</Tag>}
            {o.mustChangePassword ? <Tag>待修改初始密码</Tag> : null}
          </Space>
        ),
      },
      timeColumn('最近登录', 'lastLoginAt', false),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, o) =>
          manage && o.id !== me ? (
            <Space size={0}>
              <Button type="link" size="small" onClick={() => setEditing(o.id)}>
                编辑
              </Button>
              <ConfirmLink
                title={o.status === 'blocked' ? '启用操作员' : '停用操作员'}
                description={
                  o.status === 'blocked'
                    ? `启用后 ${o.name} 可以重新登录后台。`
                    : `停用后 ${o.name} 的登录会话立即全部失效，且不能再登录。`
                }
                okText={o.status === 'blocked' ? '启用' : '停用'}
                danger={o.status !== 'blocked'}
                onConfirm={() =>
                  o.status === 'blocked'
                    ? untilSettled(enable.mutate, { id: o.id, reason: '在操作员管理中启用' })
                    : untilSettled(disable.mutate, { id: o.id, reason: '在操作员管理中停用' })
                }
              >
                {o.status === 'blocked' ? '启用' : '停用'}
              </ConfirmLink>
              <ConfirmLink
                title="重置密码"
                description={`将为 ${o.name} 生成新的初始密码（只显示一次），其登录会话立即失效。`}
                okText="重置"
                danger
                onConfirm={() =>
                  new Promise<void>((resolve) =>
                    reset.mutate(
                      { id: o.id, reason: '在操作员管理中重置' },
                      {
                        onSuccess: (answer) => setShown({ title: '新的初始密码', result: answer }),
                        onSettled: () => resolve(),
                      },
                    ),
                  )
                }
              >
                重置密码
              </ConfirmLink>
            </Space>
          ) : (
            <span className="list-muted">{o.id === me ? '（本人）' : '-'}</span>
          ),
      },
    ],
    [manage, me, disable.mutate, enable.mutate, reset.mutate],
  );

  return (
    <>
      <ListView<Row>
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        detailTitle="操作员详情"
        exportPath="/api/operators/export"
        exportName="操作员"
        emptyText="没有符合条件的操作员。"
        actions={
          manage ? (
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建操作员
            </Button>
          ) : null
        }
      />
      <OperatorEditor
        target={editing}
        operator={typeof editing === 'number' ? list.data?.list.find((o) => o.id === editing) : undefined}
        onClose={() => setEditing(null)}
        onMade={(made) => setShown({ title: '操作员已创建：初始密码', result: made })}
      />
      <InitialPasswordModal
        result={shown?.result ?? null}
        title={shown?.title}
        who="操作员"
        onClose={() => setShown(null)}
      />
    </>
  );
}
