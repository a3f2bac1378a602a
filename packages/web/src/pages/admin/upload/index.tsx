import { FileZipOutlined } from '@ant-design/icons';
import { fileKinds } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { useQueryClient } from '@tanstack/react-query';
import { Image, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useApiAction } from '../../../api/hooks';
import { uploadFinder } from '../../../api/request';
import { UploadProgress } from '../../../components/admin/UploadProgress';
import {
  ConfirmLink,
  type FilterField,
  type ListValues,
  ListView,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { formatSize } from '../../../components/size';
import { untilSettled } from '../../../components/writes';
import './upload.css';
import { Allowed } from '../../../components/admin/Allowed';
import { useGrants } from '../../../state/grants';

type FileRow = ApiOutput<'/api/files/fetch/page'>['list'][number];

const keys = ['search', 'kind'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'search', label: '搜索', placeholder: '文件名或 SHA-256 前缀', width: 220 },
  {
    kind: 'select',
    name: 'kind',
    label: '类型',
    width: 130,
    options: [{ value: '', label: '全部类型' }, ...fileKinds.map((k) => ({ value: k.value, label: k.label }))],
  },
];
const sortColumns = ['createdAt', 'size'] as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const kind = fileKinds.find((k) => k.value === values.kind)?.value;
  return { search: values.search ?? '', ...(kind ? { kind } : {}), ...sortParams(sort, sortColumns) };
}

function Preview({ file }: { file: FileRow }) {
  if (file.kind === 'image')
    return <Image src={file.url} alt={file.name} width={48} height={48} className="upload-thumb" />;
  if (file.kind === 'audio')
    // biome-ignore lint/a11y/useMediaCaption: sound effects have no speech to caption
    return <audio controls preload="none" src={file.url} className="upload-audio" aria-label={`播放 ${file.name}`} />;
  return (
    <span className="upload-package" aria-hidden>
      <FileZipOutlined aria-hidden />
    </span>
  );
}

/** /admin/admin/upload (文件管理): every stored upload, what uses it, and uploading new ones. */
export default function UploadPage() {
  const list = useList({ fetchPath: '/api/files/fetch/page', keys, toFilter });
  const remove = useApiAction('/api/files/remove');
  const canRemove = useGrants().canCall('/api/files/remove');
  const queryClient = useQueryClient();

  const columns = useMemo<ColumnsType<FileRow>>(
    () => [
      { title: '预览', key: 'preview', width: 90, render: (_, f) => <Preview file={f} /> },
      {
        title: '文件',
        key: 'name',
        render: (_, f) => (
          <div className="upload-name-cell">
            <Typography.Link href={f.url} target="_blank" rel="noreferrer" ellipsis>
              {f.name}
            </Typography.Link>
            <Tooltip title={f.sha256}>
              <Typography.Text
                type="secondary"
                copyable={{ text: f.sha256, tooltips: ['复制 SHA-256', '已复制'] }}
                className="upload-sha"
              >
                SHA-256 {f.sha256.slice(0, 12)}…
              </Typography.Text>
            </Tooltip>
          </div>
        ),
      },
      {
        title: '类型',
        dataIndex: 'kind',
        key: 'kind',
        render: (kind: string) => <Tag>{labelOf(fileKinds, kind)}</Tag>,
      },
      {
        title: '大小',
        dataIndex: 'size',
        key: 'size',
        sorter: true,
        align: 'right',
        render: (n: number) => formatSize(n),
      },
      { title: '上传者', dataIndex: 'uploader', key: 'uploader' },
      timeColumn('上传时间', 'createdAt'),
      {
        title: '使用情况',
        dataIndex: 'usedBy',
        key: 'usedBy',
        render: (usedBy: string[]) =>
          usedBy.length ? (
            <Space size={[0, 4]} wrap>
              {usedBy.map((u) => (
                <Tag key={u} color="blue">
                  {u}
                </Tag>
              ))}
            </Space>
          ) : (
            <span className="list-muted">未被引用</span>
          ),
      },
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, f) =>
          !canRemove ? null : f.usedBy.length ? (
            <Tooltip title="仍被引用的文件不能删除">
              <Typography.Text type="secondary">删除</Typography.Text>
            </Tooltip>
          ) : (
            <ConfirmLink
              title="删除文件"
              description="文件会从服务器上永久删除，无法恢复。"
              okText="删除"
              danger
              path="/api/files/remove"
              onConfirm={() => untilSettled(remove.mutate, { id: f.id })}
            >
              删除
            </ConfirmLink>
          ),
      },
    ],
    [remove.mutate, canRemove],
  );

  return (
    <ListView<FileRow>
      exportPath="/api/files/export"
      exportName="文件"
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      emptyText="还没有上传过文件。图片、音频和安装包（APK、AAB、IPA）都可以在这里上传。"
      header={
        <Allowed path="/api/finder/single">
          <UploadProgress
            buttonText="上传文件"
            progressLabel="文件上传进度"
            send={async (file, onProgress, signal) => {
              const body = await uploadFinder(file, onProgress, signal);
              return body.code === 200 ? body.data : null;
            }}
            onDone={() => void queryClient.invalidateQueries({ queryKey: ['/api/files/fetch/page'] })}
          />
        </Allowed>
      }
    />
  );
}
