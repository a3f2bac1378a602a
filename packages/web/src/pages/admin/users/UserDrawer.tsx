import { UserOutlined } from '@ant-design/icons';
import { channels, coinReasons } from '@appdesk/contract/constants';
import { formatDateTime, formatExactTime } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import type { AdminUser, ApiOutput } from '@appdesk/contract/types';
import { Avatar, Button, Descriptions, Drawer, Empty, Result, Skeleton, Space, Table, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useApiQuery } from '../../../api/hooks';
import { DeltaCell, TimeCell, useIsMobile } from '../../../components/list';
import { useApps } from '../../../state/apps';
import { PhoneReveal } from './PhoneReveal';
import { StatusTag } from './StatusTag';
import { UserMenu } from './UserMenu';
import { VipSection, type Vips } from './VipSection';
import { VipText } from './VipText';
import './users.css';
import { usePageOpens } from '../../../components/admin/PageLink';

type Other = ApiOutput<'/api/users/fetch/other/info'>;
type CoinRow = Other['coinRecords'][number];
type SessionRow = Other['sessions'][number];

/** VIP is per app: each app the user ever had VIP time in, by name, with its expiry. */
function AppVips({ vips }: { vips: Vips }) {
  const apps = useApps();
  if (vips.length === 0) return <VipText expires={null} />;
  return (
    <Space orientation="vertical" size={2}>
      {vips.map((v) => (
        <Space key={v.app} size={6}>
          <span>{apps.nameOf(v.app)}</span>
          <VipText expires={v.expiresAt} />
        </Space>
      ))}
    </Space>
  );
}

/** 用户详情: profile, coins, VIP, source, latest ledger rows and login sessions, with the actions. */
export function UserDrawer({
  id,
  onClose,
  onAdjustCoins,
}: {
  id: number | null;
  onClose: () => void;
  onAdjustCoins: (user: AdminUser) => void;
}) {
  const mobile = useIsMobile();
  const navigate = useNavigate();
  const opens = usePageOpens();
  const enabled = { enabled: id !== null };
  const detail = useApiQuery('/api/users/fetch/detail', { id: id ?? 0 }, enabled);
  const other = useApiQuery('/api/users/fetch/other/info', { id: id ?? 0 }, enabled);
  const user = detail.data && detail.data.user.id === id ? detail.data.user : undefined;
  const vips = detail.data?.vips ?? [];
  const apps = useApps();

  let body: React.ReactNode;
  if (detail.isError) {
    body = <Result status="warning" title="用户资料加载失败" subTitle="该用户可能不存在，或网络出现问题。" />;
  } else if (!user) {
    body = <Skeleton active avatar paragraph={{ rows: 8 }} />;
  } else {
    body = (
      <div className="user-detail">
        <div className="user-detail-head">
          <Avatar size={56} src={user.avatar || undefined} icon={<UserOutlined aria-hidden />} alt="" />
          <div className="user-detail-title">
            <Typography.Title level={4} style={{ margin: 0 }}>
              {user.name}
            </Typography.Title>
            <Space size={4} wrap>
              <StatusTag user={user} />
              {user.isAdmin ? <Tag color="blue">管理员</Tag> : null}
              {user.mustChangePassword ? <Tag color="orange">待修改初始密码</Tag> : null}
              <span className="list-muted">ID {user.id}</span>
            </Space>
          </div>
        </div>
        <div>
          <UserMenu user={user} onAdjustCoins={onAdjustCoins} />
        </div>
        <Descriptions
          className="user-detail-section"
          title="资料"
          bordered
          size="small"
          column={mobile ? 1 : 2}
          items={[
            { key: 'phone', label: '手机号', children: <PhoneReveal key={user.id} id={user.id} masked={user.phone} /> },
            { key: 'nickname', label: '昵称', children: user.nickname || <span className="list-muted">未设置</span> },
            {
              key: 'email',
              label: '邮箱',
              span: mobile ? 1 : 2,
              children: user.email ? (
                <Space size={4} wrap>
                  <span>{user.email}</span>
                  {user.emailVerified ? <Tag color="green">已验证</Tag> : <Tag>未验证</Tag>}
                </Space>
              ) : (
                <span className="list-muted">未绑定</span>
              ),
            },
            {
              key: 'coins',
              label: '金币',
              children: <strong>{user.coins.toLocaleString('zh-CN')}</strong>,
            },
            { key: 'vip', label: 'VIP 到期', span: mobile ? 1 : 2, children: <AppVips vips={vips} /> },
            { key: 'app', label: '注册应用', children: apps.nameOf(user.app) || '-' },
            { key: 'channel', label: '渠道', children: labelOf(channels, user.channel) || '-' },
            { key: 'createdAt', label: '注册时间', children: formatDateTime(user.createdAt) },
            { key: 'lastLoginAt', label: '最近登录', children: formatDateTime(user.lastLoginAt) },
            { key: 'lastActiveAt', label: '最近活跃', children: formatDateTime(user.lastActiveAt) },
          ]}
        />
        <VipSection user={user} vips={vips} />
        <div className="user-detail-section">
          <div className="user-detail-subhead">
            <Typography.Title level={5} style={{ margin: 0 }}>
              最近金币流水
            </Typography.Title>
            {opens('/admin/admin/coin') ? (
              <Button
                type="link"
                size="small"
                onClick={() => navigate(`/admin/admin/coin?userId=${user.id}`)}
                aria-label={`查看 ${user.name} 的全部金币流水`}
              >
                查看全部流水
              </Button>
            ) : null}
          </div>
          <Table<CoinRow>
            size="small"
            rowKey="id"
            loading={other.isFetching}
            dataSource={other.data?.coinRecords ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该用户还没有金币变动记录" />,
            }}
            columns={[
              { title: '时间', dataIndex: 'createdAt', render: (v: string) => <TimeCell value={v} /> },
              { title: '变动', dataIndex: 'delta', align: 'right', render: (v: number) => <DeltaCell value={v} /> },
              {
                title: '余额',
                dataIndex: 'balanceAfter',
                align: 'right',
                render: (v: number) => v.toLocaleString('zh-CN'),
              },
              { title: '原因', dataIndex: 'reason', render: (v: string) => labelOf(coinReasons, v) },
              {
                title: '备注',
                dataIndex: 'note',
                render: (v: string | null) => v || <span className="list-muted">-</span>,
              },
            ]}
          />
        </div>
        <div className="user-detail-section">
          <Typography.Title level={5} style={{ margin: '0 0 8px' }}>
            登录会话
          </Typography.Title>
          <Table<SessionRow>
            size="small"
            rowKey="id"
            loading={other.isFetching}
            dataSource={other.data?.sessions ?? []}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{
              emptyText: (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description="当前没有有效的登录会话（未登录、已退出或已被封禁）"
                />
              ),
            }}
            columns={[
              { title: '登录时间', dataIndex: 'createdAt', render: (v: string) => formatExactTime(v) },
              { title: '最近使用', dataIndex: 'lastUsedAt', render: (v: string) => <TimeCell value={v} /> },
              { title: 'IP', dataIndex: 'ip', render: (v: string | null) => v || '-' },
              {
                title: '设备',
                dataIndex: 'userAgent',
                render: (v: string | null) =>
                  v ? (
                    <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 260 }}>
                      {v}
                    </Typography.Text>
                  ) : (
                    '-'
                  ),
              },
            ]}
          />
        </div>
      </div>
    );
  }

  return (
    <Drawer
      title="用户详情"
      open={id !== null}
      onClose={onClose}
      size={mobile ? '100%' : 720}
      destroyOnHidden
      closable={{ 'aria-label': '关闭用户详情' }}
    >
      {body}
    </Drawer>
  );
}
