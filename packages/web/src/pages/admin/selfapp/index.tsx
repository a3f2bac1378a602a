import { PlusOutlined } from '@ant-design/icons';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Image, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { Allowed } from '../../../components/admin/Allowed';
import { appColumn } from '../../../components/admin/appField';
import { BatchBar, type BatchButton, useAllowedBatches, useSelection } from '../../../components/admin/BatchBar';
import { PageLink } from '../../../components/admin/PageLink';
import {
  ConfirmLink,
  type FilterField,
  flagValue,
  type ListValues,
  ListView,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { untilSettled } from '../../../components/writes';
import { useGrants } from '../../../state/grants';
import { SelfappEditor } from './SelfappEditor';

type Row = ApiOutput<'/api/selfapp/fetch/page'>['list'][number];

const keys = ['enabled'] as const;
const fields: FilterField[] = [
  {
    kind: 'select',
    name: 'enabled',
    label: '状态',
    width: 120,
    options: [
      { value: '', label: '全部' },
      { value: 'true', label: '已启用' },
      { value: 'false', label: '已停用' },
    ],
  },
];
const sortColumns = ['sort', 'rewardCoins', 'createdAt'] as const;
const defaultSort = { sort: 'sort', order: 'ascend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const enabled = flagValue(values.enabled);
  return { ...(enabled === undefined ? {} : { enabled }), ...sortParams(sort, sortColumns) };
}

/** A grey rounded square for apps without an icon. */
const fallbackIcon =
  'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="44" height="44"><rect width="44" height="44" rx="10" fill="%23f0f0f0"/></svg>';

const batchButtons: BatchButton[] = [
  { label: '批量启用', path: '/api/selfapp/update/enabled/batch', params: { enabled: true } },
  {
    label: '批量停用',
    path: '/api/selfapp/update/enabled/batch',
    params: { enabled: false },
    danger: true,
  },
];

/** /admin/admin/selfapp (自家应用): the company's other apps our apps promote, with an install reward. */
export default function SelfappPage() {
  const list = useList({ fetchPath: '/api/selfapp/fetch/page', keys, toFilter, defaultSort });
  const selection = useSelection<Row>((a) => a.name);
  const batches = useAllowedBatches(batchButtons);
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const update = useApiAction('/api/selfapp/update');
  // Without 自家应用 · 修改 the list is read-only (详情 still opens).
  const writable = useGrants().canCall('/api/selfapp/update');
  const remove = useApiAction('/api/selfapp/remove');

  const columns = useMemo<ColumnsType<Row>>(
    () => [
      {
        title: '应用',
        key: 'name',
        render: (_, s) => (
          <Space size={10}>
            <Image
              src={s.icon || undefined}
              alt={s.icon ? `${s.name}的图标` : ''}
              width={44}
              height={44}
              preview={Boolean(s.icon)}
              fallback={fallbackIcon}
              style={{ objectFit: 'cover', borderRadius: 10 }}
            />
            <Space orientation="vertical" size={0}>
              {writable ? (
                <Typography.Link strong onClick={() => setEditing(s.id)}>
                  {s.name}
                </Typography.Link>
              ) : (
                <Typography.Text strong>{s.name}</Typography.Text>
              )}
              <span className="list-muted">{s.description || '（未填写简介）'}</span>
            </Space>
          </Space>
        ),
      },
      {
        title: '平台',
        key: 'platforms',
        render: (_, s) => (
          <Space size={4} wrap>
            {s.androidUrl || s.packageId ? <Tag color="green">Android</Tag> : null}
            {s.iosUrl ? <Tag color="blue">iOS</Tag> : null}
          </Space>
        ),
      },
      {
        title: '安卓包名',
        dataIndex: 'packageId',
        key: 'packageId',
        render: (v: string) =>
          v ? <span style={{ fontFamily: 'monospace' }}>{v}</span> : <span className="list-muted">-</span>,
      },
      appColumn<Row>('apps', '展示位置'),
      {
        title: '安装奖励',
        dataIndex: 'rewardCoins',
        key: 'rewardCoins',
        sorter: true,
        align: 'right',
        render: (v: number) =>
          v ? <strong>{v.toLocaleString('zh-CN')} 金币</strong> : <span className="list-muted">无</span>,
      },
      {
        title: '安装 / 已奖励',
        key: 'installs',
        align: 'right',
        render: (_, s) => (
          <PageLink to={`/admin/admin/selfapprecord?selfappId=${s.id}`}>
            {s.installs.toLocaleString('zh-CN')} / {s.rewarded.toLocaleString('zh-CN')} 人
          </PageLink>
        ),
      },
      { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true, align: 'right' },
      {
        title: '状态',
        dataIndex: 'enabled',
        key: 'enabled',
        render: (v: boolean) => (v ? <Tag color="green">已启用</Tag> : <Tag>已停用</Tag>),
      },
      timeColumn('创建时间', 'createdAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, s) => (
          <Space size={0}>
            {writable ? (
              <Button type="link" size="small" onClick={() => setEditing(s.id)}>
                编辑
              </Button>
            ) : null}
            <ConfirmLink
              title={s.enabled ? '停用推广' : '启用推广'}
              description={s.enabled ? '停用后 App 不再展示它，也不再发放安装奖励。' : '启用后选中的 App 会展示它。'}
              okText={s.enabled ? '停用' : '启用'}
              path="/api/selfapp/update"
              onConfirm={() => untilSettled(update.mutate, { id: s.id, enabled: !s.enabled })}
            >
              {s.enabled ? '停用' : '启用'}
            </ConfirmLink>
            <ConfirmLink
              title="删除推广应用"
              description="删除后 App 不再展示它；推广记录和已发放的奖励会保留。"
              okText="删除"
              danger
              path="/api/selfapp/remove"
              onConfirm={() => untilSettled(remove.mutate, { id: s.id })}
            >
              删除
            </ConfirmLink>
          </Space>
        ),
      },
    ],
    [update.mutate, remove.mutate, writable],
  );

  return (
    <>
      <ListView<Row>
        exportPath="/api/selfapp/export"
        exportName="自家应用"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有推广应用。点击“新建推广应用”添加公司的其他应用，App 会在“更多应用”中展示它们。"
        header={<BatchBar selection={selection} noun="应用" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          <Allowed path="/api/selfapp/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建推广应用
            </Button>
          </Allowed>
        }
      />
      <SelfappEditor target={editing} onClose={() => setEditing(null)} />
    </>
  );
}
