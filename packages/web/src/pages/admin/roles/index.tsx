import { PlusOutlined } from '@ant-design/icons';
import { permissionList } from '@appdesk/contract/permissions';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { AppNames } from '../../../components/admin/appField';
import {
  ConfirmLink,
  type FilterField,
  type ListValues,
  ListView,
  timeColumn,
  useList,
} from '../../../components/list';
import { untilSettled } from '../../../components/writes';
import { useCanCall } from '../../../state/grants';
import { RoleEditor } from './RoleEditor';
import './roles.css';

type Row = ApiOutput<'/api/roles/fetch/page'>['list'][number];

const keys = ['search'] as const;
const fields: FilterField[] = [{ kind: 'text', name: 'search', label: '搜索', placeholder: '角色名称或说明' }];
const toFilter = (values: ListValues) => ({ search: values.search ?? '' });

const sensitive = new Set<string>(permissionList.filter((p) => p.sensitive).map((p) => p.key));
const pageLabels = new Map<string, string>(permissionList.map((p) => [p.page, p.pageLabel]));

/** A role's permissions in a few words: how many, how many sensitive, and the pages in a tooltip. */
function PermissionSummary({ role }: { role: Row }) {
  if (role.builtin === 'super') return <Tag color="gold">全部权限</Tag>;
  if (role.permissions.length === 0) return <span className="list-muted">无权限</span>;
  const pages = [...new Set(role.permissions.map((key) => key.split('.')[0]))].map((page) => pageLabels.get(page));
  const risky = role.permissions.filter((key) => sensitive.has(key)).length;
  return (
    <Tooltip title={pages.join('、')}>
      <Space size={4} wrap>
        <span>
          {pages.length} 个页面 · {role.permissions.length} 项权限
        </span>
        {risky ? <Tag color="orange">含 {risky} 项敏感</Tag> : null}
      </Space>
    </Tooltip>
  );
}

/** /admin/admin/roles (角色管理): what each role may do, in which apps; 操作员管理 hands them out. */
export default function RolesPage() {
  const list = useList({ fetchPath: '/api/roles/fetch/page', keys, toFilter });
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const remove = useApiAction('/api/roles/remove');
  const manage = useCanCall('/api/roles/make');

  const columns = useMemo<ColumnsType<Row>>(
    () => [
      {
        title: '角色',
        key: 'name',
        render: (_, r) => (
          <Space orientation="vertical" size={0}>
            <Space size={4} wrap>
              <Typography.Link strong onClick={() => setEditing(r.id)}>
                {r.name}
              </Typography.Link>
              {r.builtin ? <Tag>内置</Tag> : null}
            </Space>
            {r.description ? <span className="list-muted roles-description">{r.description}</span> : null}
          </Space>
        ),
      },
      { title: '权限', key: 'permissions', render: (_, r) => <PermissionSummary role={r} /> },
      {
        title: '可见应用',
        dataIndex: 'apps',
        key: 'apps',
        render: (apps: string[] | null) => (apps === null ? '全部应用' : <AppNames codes={apps} />),
      },
      {
        title: '二次验证',
        dataIndex: 'requireTotp',
        key: 'requireTotp',
        render: (v: boolean) => (v ? <Tag color="blue">登录需要</Tag> : <span className="list-muted">不要求</span>),
      },
      { title: '操作员', dataIndex: 'operators', key: 'operators', render: (n: number) => `${n} 人` },
      timeColumn('修改时间', 'updatedAt', false),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, r) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing(r.id)}>
              {manage && r.editable ? '编辑' : '查看'}
            </Button>
            {manage && r.removable ? (
              <ConfirmLink
                title="删除角色"
                description={
                  r.operators > 0
                    ? `还有 ${r.operators} 位操作员持有「${r.name}」，请先在操作员管理中取消分配。`
                    : `删除「${r.name}」后不可恢复。`
                }
                okText="删除"
                danger
                onConfirm={() => untilSettled(remove.mutate, { id: r.id })}
              >
                删除
              </ConfirmLink>
            ) : null}
          </Space>
        ),
      },
    ],
    [manage, remove.mutate],
  );

  return (
    <>
      <ListView<Row>
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        detailTitle="角色详情"
        exportPath="/api/roles/export"
        exportName="角色"
        emptyText="没有符合条件的角色。内置的六个角色始终存在；点击“新建角色”可以按团队分工再建。"
        actions={
          manage ? (
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建角色
            </Button>
          ) : null
        }
      />
      <RoleEditor target={editing} onClose={() => setEditing(null)} />
    </>
  );
}
