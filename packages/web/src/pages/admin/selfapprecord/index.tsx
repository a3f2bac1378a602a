import { channels, platforms, selfappActions } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { AppName } from '../../../components/admin/appField';
import {
  type FilterField,
  idValue,
  type ListValues,
  ListView,
  rangeValue,
  type SortOrder,
  sortParams,
  timeColumn,
  useList,
} from '../../../components/list';
import { useGrants } from '../../../state/grants';
import { SelfappTotals } from './SelfappTotals';

type RecordRow = ApiOutput<'/api/selfapp/record/fetch/page'>['list'][number];

const keys = ['selfappId', 'action', 'channel', 'from', 'to'] as const;
const sortColumns = ['createdAt', 'coins'] as const;
const defaultSort = { sort: 'createdAt', order: 'descend' } as const;
const actionColor: Record<string, string> = { show: 'default', click: 'blue', install: 'green' };

/**
 * The filter of the URL values, without sorting: what the list, the totals and the export share.
 * The source app is the header's switcher, which the list kit adds to the list and the export.
 */
function filterOf(values: ListValues) {
  const selfappId = idValue(values.selfappId);
  const action = selfappActions.find((a) => a.value === values.action)?.value;
  const channel = channels.find((c) => c.value === values.channel)?.value;
  return {
    ...(selfappId ? { selfappId } : {}),
    ...(action ? { action } : {}),
    ...(channel ? { channel } : {}),
    ...rangeValue(values),
  };
}

function toFilter(values: ListValues, sort: { sort?: string; order?: SortOrder }) {
  return { ...filterOf(values), ...sortParams(sort, sortColumns) };
}

/** /admin/admin/selfapprecord (推广记录): shows, clicks and installs the apps reported, with totals per app. */
export default function SelfappRecordPage() {
  const list = useList({ fetchPath: '/api/selfapp/record/fetch/page', keys, toFilter, defaultSort });
  // The 推广应用 filter's choices are that page's list: without reading it the filter offers none.
  const selfapps = useApiQuery(
    '/api/selfapp/fetch/page',
    { size: 200, sort: 'sort', order: 'ascend' },
    { enabled: useGrants().canCall('/api/selfapp/fetch/page') },
  );
  const { action: _action, ...totalsFilter } = { ...filterOf(list.values), ...(list.app ? { app: list.app } : {}) };

  const fields = useMemo<FilterField[]>(
    () => [
      {
        kind: 'select',
        name: 'selfappId',
        label: '推广应用',
        width: 170,
        options: [
          { value: '', label: '全部推广应用' },
          ...(selfapps.data?.list ?? []).map((s) => ({ value: String(s.id), label: s.name })),
        ],
      },
      {
        kind: 'select',
        name: 'action',
        label: '行为',
        width: 110,
        options: [{ value: '', label: '全部行为' }, ...selfappActions.map((a) => ({ value: a.value, label: a.label }))],
      },
      {
        kind: 'select',
        name: 'channel',
        label: '渠道',
        width: 150,
        options: [{ value: '', label: '全部渠道' }, ...channels.map((c) => ({ value: c.value, label: c.label }))],
      },
      { kind: 'range', name: 'range', label: '时间' },
    ],
    [selfapps.data],
  );

  const columns = useMemo<ColumnsType<RecordRow>>(
    () => [
      {
        title: '推广应用',
        key: 'selfapp',
        render: (_, r) =>
          r.selfappName ? (
            <strong>{r.selfappName}</strong>
          ) : (
            <span className="list-muted">已删除的应用 #{r.selfappId}</span>
          ),
      },
      {
        title: '行为',
        dataIndex: 'action',
        key: 'action',
        render: (v: string) => <Tag color={actionColor[v]}>{labelOf(selfappActions, v)}</Tag>,
      },
      {
        title: '来源',
        key: 'source',
        render: (_, r) => (
          <span>
            <AppName code={r.app} />
            <span className="list-muted">
              {' '}
              · {labelOf(platforms, r.platform)} · {labelOf(channels, r.channel)}
            </span>
          </span>
        ),
      },
      {
        title: '用户 / 设备',
        key: 'who',
        render: (_, r) => (
          <span>
            {r.userPhone ?? <span className="list-muted">未登录</span>}
            <div className="list-muted" style={{ fontFamily: 'monospace', fontSize: 12 }}>
              {r.deviceId}
            </div>
          </span>
        ),
      },
      {
        title: '奖励金币',
        dataIndex: 'coins',
        key: 'coins',
        sorter: true,
        align: 'right',
        render: (v: number) =>
          v ? <strong>+{v.toLocaleString('zh-CN')}</strong> : <span className="list-muted">-</span>,
      },
      timeColumn('时间', 'createdAt'),
    ],
    [],
  );

  return (
    <ListView<RecordRow>
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      emptyText="没有符合条件的推广记录。App 展示、点击或安装推广应用后，记录会出现在这里。"
      exportPath="/api/selfapp/record/export"
      exportName="推广记录"
      header={<SelfappTotals filter={totalsFilter} onPick={(id) => list.update({ selfappId: id })} />}
    />
  );
}
