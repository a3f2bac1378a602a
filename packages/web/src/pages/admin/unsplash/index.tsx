import { AppstoreOutlined, EditOutlined, PlusOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { uploadLimits } from '@appdesk/contract/constants';
import type { ApiOutput } from '@appdesk/contract/types';
import { Button, Checkbox, Image, Segmented, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useApiQuery } from '../../../api/hooks';
import {
  type FilterField,
  flagValue,
  type ListValues,
  ListView,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { formatSize } from '../../../components/size';
import { BulkBar } from './BulkBar';
import { ImageEditor } from './ImageEditor';
import { UploadModal } from './UploadModal';
import './unsplash.css';
import { Allowed } from '../../../components/admin/Allowed';
import { useGrants } from '../../../state/grants';

type Row = ApiOutput<'/api/unsplash/fetch/page'>['list'][number];

/** The URL's value for "no category" (an empty value would mean "any"). */
const NONE = '_none';
const keys = ['search', 'category', 'tag', 'enabled'] as const;
const sortColumns = ['createdAt', 'sort', 'size'] as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const enabled = flagValue(values.enabled);
  return {
    search: values.search ?? '',
    ...(values.category ? { category: values.category === NONE ? '' : values.category } : {}),
    ...(values.tag ? { tag: values.tag } : {}),
    ...(enabled === undefined ? {} : { enabled }),
    ...sortParams(sort, sortColumns),
  };
}

const sizeText = (image: Row) => `${image.width}×${image.height} · ${formatSize(image.size)}`;

/** /admin/admin/unsplash (图片管理): the image library the apps show, in a grid or a list. */
export default function UnsplashPage() {
  const list = useList({ fetchPath: '/api/unsplash/fetch/page', keys, toFilter });
  const vocabularyQuery = useApiQuery('/api/unsplash/fetch/categories', {});
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<Row | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  // Every change of the library is 图片管理 · 修改: without it the pictures are only looked at.
  const writable = useGrants().canCall('/api/unsplash/update');
  const grid = list.param('view') !== 'list';

  const vocabulary = useMemo(
    () => ({
      categories: vocabularyQuery.data?.categories.map((c) => c.name) ?? [],
      tags: vocabularyQuery.data?.tags ?? [],
    }),
    [vocabularyQuery.data],
  );

  const fields = useMemo<FilterField[]>(
    () => [
      { kind: 'text', name: 'search', label: '搜索', placeholder: '名称或作者', width: 160 },
      {
        kind: 'select',
        name: 'category',
        label: '分类',
        width: 160,
        options: [
          { value: '', label: '全部分类' },
          ...(vocabularyQuery.data?.categories ?? []).map((c) => ({
            value: c.name || NONE,
            label: `${c.name || '未分类'}（${c.count}）`,
          })),
        ],
      },
      {
        kind: 'select',
        name: 'tag',
        label: '标签',
        width: 140,
        options: [{ value: '', label: '全部标签' }, ...vocabulary.tags.map((t) => ({ value: t, label: t }))],
      },
      {
        kind: 'select',
        name: 'enabled',
        label: '状态',
        width: 110,
        options: [
          { value: '', label: '全部' },
          { value: 'true', label: '已启用' },
          { value: 'false', label: '已停用' },
        ],
      },
    ],
    [vocabularyQuery.data, vocabulary.tags],
  );

  const toggle = (id: number, on: boolean) =>
    setSelected((ids) => (on ? [...new Set([...ids, id])] : ids.filter((x) => x !== id)));

  const columns = useMemo<ColumnsType<Row>>(
    () => [
      {
        title: '图片',
        key: 'thumb',
        width: 96,
        render: (_, image) => (
          <Image
            src={image.thumbUrl}
            preview={{ src: image.url }}
            alt={image.name}
            width={72}
            height={72}
            loading="lazy"
            className="unsplash-cell-thumb"
          />
        ),
      },
      {
        title: '名称',
        key: 'name',
        render: (_, image) => (
          <div className="unsplash-name-cell">
            <Typography.Text strong>{image.name}</Typography.Text>
            <Typography.Text type="secondary">{sizeText(image)}</Typography.Text>
          </div>
        ),
      },
      {
        title: '分类',
        dataIndex: 'category',
        key: 'category',
        render: (c: string) => c || <span className="list-muted">未分类</span>,
      },
      {
        title: '标签',
        dataIndex: 'tags',
        key: 'tags',
        render: (tags: string[]) => (tags.length ? tags.map((t) => <Tag key={t}>{t}</Tag>) : '—'),
      },
      { title: '作者', dataIndex: 'author', key: 'author', render: (a: string) => a || '—' },
      { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true, align: 'right' },
      {
        title: '大小',
        dataIndex: 'size',
        key: 'size',
        sorter: true,
        align: 'right',
        render: (n: number) => formatSize(n),
      },
      {
        title: '状态',
        dataIndex: 'enabled',
        key: 'enabled',
        render: (on: boolean) => (on ? <Tag color="green">已启用</Tag> : <Tag>已停用</Tag>),
      },
      { ...timeColumn('上传时间', 'createdAt'), key: 'createdAt', sorter: true },
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, image) =>
          writable ? (
            <Button type="link" size="small" onClick={() => setEditing(image)}>
              编辑
            </Button>
          ) : null,
      },
    ],
    [writable],
  );

  const cards = (rows: Row[]) => (
    <Image.PreviewGroup>
      <ul className="unsplash-grid" aria-label="图片列表">
        {rows.map((image) => (
          <li key={image.id} className={`unsplash-card${selected.includes(image.id) ? ' unsplash-card-selected' : ''}`}>
            <div className="unsplash-card-picture">
              <Image
                src={image.thumbUrl}
                preview={{ src: image.url }}
                alt={image.name}
                loading="lazy"
                width="100%"
                height="100%"
              />
              {writable ? (
                <Checkbox
                  className="unsplash-card-check"
                  checked={selected.includes(image.id)}
                  onChange={(e) => toggle(image.id, e.target.checked)}
                  aria-label={`选择 ${image.name}`}
                />
              ) : null}
              {image.enabled ? null : <Tag className="unsplash-card-off">已停用</Tag>}
            </div>
            <div className="unsplash-card-body">
              <Typography.Text ellipsis={{ tooltip: image.name }} className="unsplash-card-name">
                {image.name}
              </Typography.Text>
              <Typography.Text type="secondary" className="unsplash-card-size">
                {sizeText(image)}
              </Typography.Text>
              <div className="unsplash-card-meta">
                <Tag color="blue">{image.category || '未分类'}</Tag>
                {writable ? (
                  <Button
                    type="text"
                    size="small"
                    icon={<EditOutlined aria-hidden />}
                    aria-label={`编辑 ${image.name}`}
                    onClick={() => setEditing(image)}
                  />
                ) : null}
              </div>
            </div>
          </li>
        ))}
      </ul>
    </Image.PreviewGroup>
  );

  const clear = () => setSelected([]);
  const currentCategory = list.values.category && list.values.category !== NONE ? list.values.category : '';

  return (
    <>
      <ListView<Row>
        exportPath="/api/unsplash/export"
        exportName="图片"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="图片库还是空的：点击「上传图片」，可以一次拖入多张"
        cards={grid ? cards : undefined}
        rowSelection={
          writable ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined
        }
        header={<BulkBar ids={selected} categories={vocabulary.categories} onDone={clear} />}
        actions={
          <>
            <Segmented
              value={grid ? 'grid' : 'list'}
              onChange={(view) => list.update({ view: view === 'list' ? 'list' : undefined }, true)}
              options={[
                { value: 'grid', icon: <AppstoreOutlined aria-hidden />, label: '网格' },
                { value: 'list', icon: <UnorderedListOutlined aria-hidden />, label: '列表' },
              ]}
            />
            <Allowed path="/api/unsplash/make">
              <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setUploading(true)}>
                上传图片
              </Button>
            </Allowed>
          </>
        }
      />
      <UploadModal
        open={uploading}
        onClose={() => setUploading(false)}
        category={currentCategory}
        vocabulary={vocabulary}
        maxBytes={uploadLimits.image}
        onUploaded={() => {
          void list.refresh();
          void vocabularyQuery.refetch();
        }}
      />
      <ImageEditor image={editing} vocabulary={vocabulary} onClose={() => setEditing(null)} />
    </>
  );
}
