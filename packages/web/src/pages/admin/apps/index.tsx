import { PlusOutlined } from '@ant-design/icons';
import { channels } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Image, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { BatchBar, type BatchButton, useAllowedBatches, useSelection } from '../../../components/admin/BatchBar';
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
import { useApps } from '../../../state/apps';
import { AppEditor } from './AppEditor';
import { SecretsKeyMissing } from './SecretRow';
import './apps.css';
import { Allowed } from '../../../components/admin/Allowed';
import { useGrants } from '../../../state/grants';

type Row = ApiOutput<'/api/apps/fetch/page'>['list'][number];

const keys = ['search', 'enabled'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '搜索', placeholder: '应用代码或名称' },
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
const sortColumns = ['createdAt', 'code'] as const;
const defaultSort = { sort: 'createdAt', order: 'ascend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const enabled = flagValue(values.enabled);
  return {
    search: values.search ?? '',
    ...(enabled === undefined ? {} : { enabled }),
    ...sortParams({ sort: sort.sort, order: sort.order ?? 'ascend' }, sortColumns),
  };
}

/** A grey rounded square for apps without an icon. */
const fallbackIcon =
  'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" rx="9" fill="%23f0f0f0"/></svg>';

const muted = <span className="list-muted">-</span>;
const mono = (v: string) => (v ? <span className="apps-mono">{v}</span> : muted);

const batchButtons: BatchButton[] = [
  { label: '批量启用', path: '/api/apps/update/enabled/batch', params: { enabled: true } },
  { label: '批量停用', path: '/api/apps/update/enabled/batch', params: { enabled: false }, danger: true },
];

/** /admin/admin/apps (应用管理): the company's apps; the header's switcher, filters and names come from here. */
export default function AppsPage() {
  const list = useList({ fetchPath: '/api/apps/fetch/page', keys, toFilter, defaultSort });
  const selection = useSelection<Row>((a) => a.name);
  const batches = useAllowedBatches(batchButtons);
  const writable = useGrants().canCall('/api/apps/update');
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const update = useApiAction('/api/apps/update');
  const { secretsWritable, loaded } = useApps();

  const columns = useMemo<ColumnsType<Row>>(
    () => [
      {
        title: '应用',
        key: 'name',
        render: (_, a) => (
          <Space size={10}>
            <Image
              src={a.icon || undefined}
              alt={a.icon ? `${a.name}的图标` : ''}
              width={40}
              height={40}
              preview={Boolean(a.icon)}
              fallback={fallbackIcon}
              style={{ objectFit: 'cover', borderRadius: 9 }}
            />
            <Space orientation="vertical" size={0}>
              <Typography.Link strong onClick={() => setEditing(a.id)}>
                {a.name}
              </Typography.Link>
              <span className="apps-mono list-muted">{a.code}</span>
            </Space>
          </Space>
        ),
      },
      { title: '应用代码', dataIndex: 'code', key: 'code', sorter: true, render: mono },
      {
        title: '状态',
        dataIndex: 'enabled',
        key: 'enabled',
        render: (v: boolean, a) => (
          <Space size={4} wrap>
            {v ? <Tag color="green">已启用</Tag> : <Tag>已停用</Tag>}
            {a.isDefault ? <Tag color="blue">默认应用</Tag> : null}
          </Space>
        ),
      },
      {
        title: '包名',
        key: 'packages',
        render: (_, a) =>
          a.androidPackage || a.iosBundleId ? (
            <Space orientation="vertical" size={0}>
              {a.androidPackage ? <span>安卓 {mono(a.androidPackage)}</span> : null}
              {a.iosBundleId ? <span>iOS {mono(a.iosBundleId)}</span> : null}
            </Space>
          ) : (
            muted
          ),
      },
      {
        title: '上架渠道',
        dataIndex: 'channels',
        key: 'channels',
        render: (v: Row['channels']) => {
          if (!v.length) return muted;
          const names = v.map((c) => labelOf(channels, c.channel));
          return (
            // The count only: the names are in the tooltip and 详情, so the list fits a laptop's width.
            <Tooltip title={names.join('、')}>
              <span>{v.length} 个渠道</span>
            </Tooltip>
          );
        },
      },
      {
        title: '商店与支付',
        key: 'payments',
        render: (_, a) => {
          const on = [
            (a.iosBundleId || a.fromEnvironment.apple) && 'App Store',
            (a.secrets.googleServiceAccount.set || a.fromEnvironment.google) && 'Google Play',
            ((a.alipayAppId && a.alipayPublicKey) || a.fromEnvironment.alipay) && '支付宝',
            ((a.wechatMchId && a.secrets.wechatApiV3Key.set) || a.fromEnvironment.wechat) && '微信支付',
          ].filter(Boolean);
          return on.length ? (
            <Space size={[4, 0]} wrap style={{ maxWidth: 180 }}>
              {on.map((name) => (
                <span key={String(name)}>{name}</span>
              ))}
            </Space>
          ) : (
            <span className="list-muted">未设置</span>
          );
        },
      },
      timeColumn('登记时间', 'createdAt'),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, a) => (
          <Space size={0}>
            {writable ? (
              <Button type="link" size="small" onClick={() => setEditing(a.id)}>
                编辑
              </Button>
            ) : null}
            <ConfirmLink
              path="/api/apps/update"
              title={a.enabled ? '停用应用' : '启用应用'}
              description={
                a.enabled
                  ? '停用后该应用的 App 调用一律被拒绝，后台仍可查看和管理它的数据。'
                  : '启用后该应用的 App 可以正常调用。'
              }
              okText={a.enabled ? '停用' : '启用'}
              danger={a.enabled}
              onConfirm={() => untilSettled(update.mutate, { id: a.id, enabled: !a.enabled })}
            >
              {a.enabled ? '停用' : '启用'}
            </ConfirmLink>
          </Space>
        ),
      },
    ],
    [update.mutate, writable],
  );

  return (
    <>
      <ListView<Row>
        exportPath="/api/apps/export"
        exportName="应用"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        detailTitle="应用详情"
        emptyText="还没有应用。点击“登记应用”添加公司的 App。"
        header={
          <>
            {loaded && !secretsWritable ? <SecretsKeyMissing /> : null}
            <BatchBar selection={selection} noun="应用" buttons={batchButtons} />
          </>
        }
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          <Allowed path="/api/apps/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              登记应用
            </Button>
          </Allowed>
        }
      />
      <AppEditor target={editing} onClose={() => setEditing(null)} />
    </>
  );
}
