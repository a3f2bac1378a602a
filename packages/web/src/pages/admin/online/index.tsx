import type { ApiOutput } from '@appdesk/contract/types';
import { Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo } from 'react';
import { useApiAction } from '../../../api/hooks';
import { PageLink } from '../../../components/admin/PageLink';
import {
  AgentCell,
  ConfirmLink,
  type FilterField,
  idValue,
  type ListValues,
  ListView,
  timeColumn,
  useList,
} from '../../../components/list';
import { phoneFilter } from '../../../components/rules';
import { untilSettled } from '../../../components/writes';

type LiveSession = ApiOutput<'/api/sessions/fetch/page'>['list'][number];

const keys = ['phone', 'userId'] as const;
const fields: FilterField[] = [
  { kind: 'text', name: 'phone', label: '手机号', placeholder: '完整的 11 位手机号', width: 180 },
  { kind: 'text', name: 'userId', label: '用户 ID', placeholder: '例如 10086', width: 140 },
];

function toFilter(values: ListValues) {
  // Only a whole phone filters (looked up by its index); anything else is ignored.
  const phone = phoneFilter(values.phone);
  return { phone, userId: idValue(values.userId) };
}

/** /admin/admin/online (在线用户): every live session across accounts; 强制下线 ends one at once. */
export default function OnlinePage() {
  const list = useList({ fetchPath: '/api/sessions/fetch/page', keys, toFilter });
  const { mutate: revoke } = useApiAction('/api/sessions/revoke', {
    success: () => ({ title: '已强制下线', description: '该会话的令牌已失效，对方需要重新登录' }),
  });

  const columns = useMemo<ColumnsType<LiveSession>>(
    () => [
      {
        title: '用户',
        key: 'user',
        render: (_, s) => (
          <span>
            <PageLink to={`/admin/admin/users?search=${s.userId}&detail=${s.userId}`}>{s.name}</PageLink>
            {s.name === s.phone ? null : <span className="list-muted"> · {s.phone}</span>}
            {s.isAdmin ? (
              <Tag color="gold" style={{ marginLeft: 8 }}>
                管理员
              </Tag>
            ) : null}
          </span>
        ),
      },
      {
        title: 'IP',
        dataIndex: 'ip',
        key: 'ip',
        render: (v: string | null) => v || <span className="list-muted">-</span>,
      },
      {
        title: '设备',
        dataIndex: 'userAgent',
        key: 'userAgent',
        render: (v: string | null, s) => <AgentCell value={v} device={s.device} />,
      },
      timeColumn('最近活跃', 'lastUsedAt', false),
      timeColumn('登录时间', 'createdAt', false),
      timeColumn('到期时间', 'expiresAt', false),
      {
        title: '操作',
        key: 'actions',
        fixed: 'right',
        render: (_, s) => (
          <ConfirmLink
            title="强制下线"
            description={`${s.name} 的这个会话将立即失效，需要重新登录。`}
            okText="强制下线"
            danger
            path="/api/sessions/revoke"
            onConfirm={() => untilSettled(revoke, { id: s.id })}
          >
            强制下线
          </ConfirmLink>
        ),
      },
    ],
    [revoke],
  );

  return (
    <ListView<LiveSession>
      exportPath="/api/sessions/export"
      exportName="在线用户"
      list={list}
      columns={columns}
      rowKey="id"
      fields={fields}
      emptyText="没有符合条件的在线会话。每次登录都会产生一个会话，7 天不活跃、退出登录或被强制下线后消失。"
    />
  );
}
