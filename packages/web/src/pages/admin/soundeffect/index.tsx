import { PauseCircleFilled, PlayCircleFilled, PlusOutlined } from '@ant-design/icons';
import { uploadLimits } from '@appdesk/contract/constants';
import { formatDuration } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { App, Button, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
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
import { formatSize } from '../../../components/size';
import { untilSettled } from '../../../components/writes';
import { type Sound, SoundEditor, UploadSounds } from './SoundForms';
import './soundeffect.css';
import { Allowed } from '../../../components/admin/Allowed';
import { useGrants } from '../../../state/grants';

const NONE = '_none';
const keys = ['search', 'category', 'enabled'] as const;
const sortColumns = ['sort', 'createdAt', 'duration'] as const;
const defaultSort = { sort: 'sort', order: 'ascend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  const enabled = flagValue(values.enabled);
  return {
    search: values.search ?? '',
    ...(values.category ? { category: values.category === NONE ? '' : values.category } : {}),
    ...(enabled === undefined ? {} : { enabled }),
    ...sortParams(sort, sortColumns),
  };
}

/** One audio element for the whole page: starting a sound stops the one playing. */
function usePlayer() {
  const audio = useRef<HTMLAudioElement | null>(null);
  const [playing, setPlaying] = useState<number | null>(null);
  useEffect(() => () => audio.current?.pause(), []);
  const toggle = (sound: Sound) => {
    audio.current ??= new Audio();
    const player = audio.current;
    if (playing === sound.id) {
      player.pause();
      setPlaying(null);
      return;
    }
    player.pause();
    player.src = sound.url;
    // A stopped sound's own promise rejects (interrupted): only its own failure clears its state.
    const stop = () => setPlaying((current) => (current === sound.id ? null : current));
    player.onended = stop;
    setPlaying(sound.id);
    player.play().catch(stop);
  };
  return { playing, toggle };
}

/** /admin/admin/soundeffect (音效管理): sound effects the apps play. */
export default function SoundEffectPage() {
  const list = useList({ fetchPath: '/api/soundeffect/fetch/page', keys, toFilter, defaultSort });
  const categoriesQuery = useApiQuery('/api/soundeffect/fetch/categories', {});
  const remove = useApiAction('/api/soundeffect/remove', {
    refreshes: ['/api/soundeffect/', '/api/files/'],
  });
  const { modal } = App.useApp();
  const [uploading, setUploading] = useState(false);
  // Without 音效管理 · 修改 the library is listened to, not changed.
  const writable = useGrants().canCall('/api/soundeffect/update');
  const [editing, setEditing] = useState<Sound | null>(null);
  const player = usePlayer();
  const categories = useMemo(() => categoriesQuery.data?.categories ?? [], [categoriesQuery.data]);

  const fields = useMemo<FilterField[]>(
    () => [
      { kind: 'text', name: 'search', label: '搜索', placeholder: '音效名称', width: 160 },
      {
        kind: 'select',
        name: 'category',
        label: '分类',
        width: 160,
        options: [
          { value: '', label: '全部分类' },
          ...categories.map((c) => ({ value: c.name || NONE, label: `${c.name || '未分类'}（${c.count}）` })),
        ],
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
    [categories],
  );

  const columns = useMemo<ColumnsType<Sound>>(
    () => [
      {
        title: '播放',
        key: 'play',
        width: 64,
        render: (_, sound) => {
          const on = player.playing === sound.id;
          return (
            <Button
              type="text"
              shape="circle"
              className={on ? 'sound-playing' : undefined}
              icon={on ? <PauseCircleFilled aria-hidden /> : <PlayCircleFilled aria-hidden />}
              aria-label={`${on ? '暂停' : '播放'} ${sound.name}`}
              aria-pressed={on}
              onClick={() => player.toggle(sound)}
            />
          );
        },
      },
      {
        title: '名称',
        dataIndex: 'name',
        key: 'name',
        render: (n: string) => <Typography.Text strong>{n}</Typography.Text>,
      },
      {
        title: '分类',
        dataIndex: 'category',
        key: 'category',
        render: (c: string) => c || <span className="list-muted">未分类</span>,
      },
      {
        title: '时长',
        dataIndex: 'durationMs',
        key: 'duration',
        sorter: true,
        align: 'right',
        render: (ms: number) => <span className="sound-duration">{formatDuration(ms)}</span>,
      },
      {
        title: '格式',
        key: 'codec',
        render: (_, s) => (
          <div className="sound-codec">
            <span>{s.codec}</span>
            <span className="list-muted">
              {s.sampleRate ? `${(s.sampleRate / 1000).toLocaleString('zh-CN')} kHz` : ''}
            </span>
          </div>
        ),
      },
      { title: '大小', dataIndex: 'size', key: 'size', align: 'right', render: (n: number) => formatSize(n) },
      { title: '排序', dataIndex: 'sort', key: 'sort', sorter: true, align: 'right' },
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
        render: (_, sound) => (
          <Space>
            {writable ? (
              <Button type="link" size="small" onClick={() => setEditing(sound)}>
                编辑
              </Button>
            ) : null}
            <ConfirmLink
              title="删除音效"
              description="音频文件会从服务器上永久删除，App 中也不再提供。"
              okText="删除"
              danger
              path="/api/soundeffect/remove"
              onConfirm={() => untilSettled(remove.mutate, { id: sound.id })}
            >
              删除
            </ConfirmLink>
          </Space>
        ),
      },
    ],
    [player, remove.mutate, writable],
  );

  const onUploaded = ({ sound, duplicate }: ApiOutput<'/api/soundeffect/make'>) => {
    void list.refresh();
    void categoriesQuery.refetch();
    if (!duplicate) return;
    modal.confirm({
      title: '已有相同的音效',
      content: `这个文件与已有的音效「${sound.name}」完全相同（SHA-256 一致），没有重复保存。`,
      okText: '查看已有音效',
      cancelText: '知道了',
      onOk: () => {
        setUploading(false);
        list.update({ search: sound.name, category: undefined, enabled: undefined });
      },
    });
  };

  return (
    <>
      <ListView<Sound>
        exportPath="/api/soundeffect/export"
        exportName="音效"
        list={list}
        columns={columns}
        rowKey="id"
        fields={fields}
        emptyText="还没有音效：点击「上传音效」，可以一次拖入多个音频文件"
        actions={
          <Allowed path="/api/soundeffect/make">
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setUploading(true)}>
              上传音效
            </Button>
          </Allowed>
        }
      />
      <UploadSounds
        open={uploading}
        onClose={() => setUploading(false)}
        categories={categories.map((c) => c.name)}
        category={list.values.category && list.values.category !== NONE ? list.values.category : ''}
        maxBytes={uploadLimits.audio}
        onUploaded={onUploaded}
      />
      <SoundEditor sound={editing} categories={categories.map((c) => c.name)} onClose={() => setEditing(null)} />
    </>
  );
}
