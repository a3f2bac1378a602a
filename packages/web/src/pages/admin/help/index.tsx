import { PlusOutlined } from '@ant-design/icons';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { appColumn } from '../../../components/admin/appField';
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
import { ArticleEditor } from './ArticleEditor';
import './help.css';
import { Allowed } from '../../../components/admin/Allowed';
import { useGrants } from '../../../state/grants';

type ArticleRow = ApiOutput<'/api/help/fetch/page'>['list'][number];

const keys = ['search', 'published', 'category'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '搜索', placeholder: '标题或正文', width: 200 },
  { kind: 'text', name: 'category', label: '分类', placeholder: '例如 常见问题', width: 160 },
  {
    kind: 'select',
    name: 'published',
    label: '状态',
    width: 120,
    options: [
      { value: '', label: '全部' },
      { value: 'true', label: '已发布' },
      { value: 'false', label: '未发布' },
    ],
  },
];

const sortColumns = ['sort', 'updatedAt', 'createdAt'] as const;
const defaultSort = { sort: 'sort', order: 'ascend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const published = flagValue(values.published);
  return {
    search: values.search ?? '',
    ...(values.category ? { category: values.category } : {}),
    ...(published === undefined ? {} : { published }),
    ...sortParams(sort, sortColumns),
  };
}

const batchButtons: BatchButton[] = [
  { label: '批量发布', path: '/api/help/publish/batch' },
  { label: '批量下线', path: '/api/help/unpublish/batch', danger: true },
];

/** /admin/admin/help (帮助文档): Markdown articles the apps show by category. */
export default function HelpPage() {
  const list = useList({ fetchPath: '/api/help/fetch/page', keys, toFilter, defaultSort });
  const selection = useSelection<ArticleRow>((a) => a.title);
  const batches = useAllowedBatches(batchButtons);
  // null: closed; 'new': a new article; a number: that article.
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const publish = useApiAction('/api/help/publish');
  const unpublish = useApiAction('/api/help/unpublish');
  const remove = useApiAction('/api/help/remove');
  // Editing is 帮助文档 · 修改; publishing (发布 and 下线) is a permission of its own.
  const writable = useGrants().canCall('/api/help/update');

  const columns = useMemo<ColumnsType<ArticleRow>>(
    () => [
      {
        title: '标题',
        key: 'title',
        render: (_, a) => (
          <div className="help-title-cell">
            {writable ? (
              <Typography.Link strong onClick={() => setEditing(a.id)}>
                {a.title}
              </Typography.Link>
            ) : (
              <Typography.Text strong>{a.title}</Typography.Text>
            )}
            <Typography.Text type="secondary" ellipsis={{ tooltip: a.excerpt }} className="help-excerpt">
              {a.excerpt || '（正文为空）'}
            </Typography.Text>
          </div>
        ),
      },
      {
        title: '分类',
        dataIndex: 'category',
        key: 'category',
        render: (category: string) => (category ? <Tag>{category}</Tag> : <span className="list-muted">未分类</span>),
      },
      appColumn<ArticleRow>(),
      { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true, align: 'right' },
      {
        title: '状态',
        dataIndex: 'published',
        key: 'published',
        render: (published: boolean) => (published ? <Tag color="green">已发布</Tag> : <Tag>未发布</Tag>),
      },
      timeColumn('最近修改', 'updatedAt'),
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
            {a.published ? (
              <ConfirmLink
                title="下线文章"
                description="下线后，App 中不再显示这篇文章，可以随时重新发布。"
                okText="下线"
                path="/api/help/unpublish"
                onConfirm={() => untilSettled(unpublish.mutate, { id: a.id })}
              >
                下线
              </ConfirmLink>
            ) : (
              <ConfirmLink
                title="发布文章"
                description="发布后，App 的帮助中心会显示这篇文章。"
                okText="发布"
                path="/api/help/publish"
                onConfirm={() => untilSettled(publish.mutate, { id: a.id })}
              >
                发布
              </ConfirmLink>
            )}
            <ConfirmLink
              title="删除文章"
              description="删除后无法恢复。只想让 App 暂时看不到，请用“下线”。"
              okText="删除"
              danger
              path="/api/help/remove"
              onConfirm={() => untilSettled(remove.mutate, { id: a.id })}
            >
              删除
            </ConfirmLink>
          </Space>
        ),
      },
    ],
    [publish.mutate, unpublish.mutate, remove.mutate, writable],
  );

  return (
    <>
      <ListView<ArticleRow>
        exportPath="/api/help/export"
        exportName="帮助文档"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有帮助文章。点击“新建文章”用 Markdown 编写，发布后 App 的帮助中心按分类显示。"
        header={<BatchBar selection={selection} noun="文章" buttons={batchButtons} />}
        rowSelection={batches.length ? selection.rowSelection : undefined}
        actions={
          <Allowed path="/api/help/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setEditing('new')}>
              新建文章
            </Button>
          </Allowed>
        }
      />
      <ArticleEditor target={editing} onClose={() => setEditing(null)} />
    </>
  );
}
