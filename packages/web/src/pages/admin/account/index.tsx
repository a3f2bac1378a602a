import { Code } from '@appdesk/contract/codes';
import type { ApiOutput, ApiResponse } from '@appdesk/contract/types';
import { App, Button, Card, Form, Input, Radio, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { upload } from '../../../api/request';
import { ImageUploader } from '../../../components/admin/ImageUploader';
import { PasswordModal } from '../../../components/admin/PasswordModal';
import { AgentCell, ConfirmLink, timeColumn } from '../../../components/list';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { send, untilSettled } from '../../../components/writes';
import { setWatermarkMode, useWatermarkMode, type WatermarkMode } from '../../../layouts/watermark';
import { updateStoredUser, userStore } from '../../../state/session';
import { useStore } from '../../../state/store';
import { TwoFactorCard } from './TwoFactorCard';
import './account.css';

type OwnSession = ApiOutput<'/api/sessions/fetch/mine'>['list'][number];

interface ProfileValues {
  nickname: string;
  email: string;
}

/** Nickname and email; a new email is verified by a mail before it counts. */
function ProfileCard() {
  const user = useStore(userStore, (s) => s.currentUser);
  const { notification } = App.useApp();
  const [saving, setSaving] = useState(false);
  if (!user) return null;

  const save = async (values: ProfileValues) => {
    setSaving(true);
    try {
      const email = values.email.trim();
      const sent = await send('/api/users/update/info', {
        nickname: values.nickname.trim(),
        ...(email && email !== user.email ? { email } : {}),
      });
      if (!sent) return;
      updateStoredUser(sent.data.user);
      notification.success({
        title: '资料已保存',
        description: sent.data.emailSent ? '验证邮件已发送，请到新邮箱中点击链接完成验证。' : undefined,
      });
    } finally {
      setSaving(false);
    }
  };

  const uploadAvatar = async (file: File, onProgress: (percent: number) => void) => {
    const res = await upload<ApiResponse<'/api/users/update/avatar'>>('/api/users/update/avatar', {
      files: { avatar: file },
      onProgress,
    });
    if (res.code !== Code.OK || !('data' in res) || !res.data) return false;
    updateStoredUser(res.data.user);
    notification.success({ title: '头像已更新' });
    return true;
  };

  return (
    <Card title="基本资料">
      <div className="account-profile">
        <ImageUploader label="头像" src={user.avatar} buttonText="上传头像" onUpload={uploadAvatar} />
        <Form<ProfileValues>
          layout="vertical"
          className="account-form"
          initialValues={{ nickname: user.nickname, email: user.email ?? '' }}
          onFinish={(values) => void save(values)}
        >
          <Form.Item label="手机号" htmlFor="account-phone">
            <Input id="account-phone" value={user.phone} disabled />
          </Form.Item>
          <Form.Item label="昵称" name="nickname" rules={formRules(rules.nickname)}>
            <Input placeholder="其他管理员在操作日志中看到的名字" {...inputLimits(rules.nickname)} />
          </Form.Item>
          <Form.Item
            label="邮箱"
            name="email"
            extra={
              user.email ? (
                user.emailVerified ? (
                  <Tag color="green">已验证</Tag>
                ) : (
                  <Tag color="orange">未验证：请到邮箱中点击验证链接</Tag>
                )
              ) : (
                '用于接收验证邮件'
              )
            }
            rules={[...formRules(rules.email), { type: 'email', message: '邮箱格式不正确' }]}
          >
            <Input placeholder="name@example.com" {...inputLimits(rules.email)} />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={saving}>
            保存资料
          </Button>
        </Form>
      </div>
    </Card>
  );
}

/** The account's own sessions: where it is signed in, and a way to end any other one. */
function SessionsCard() {
  const sessions = useApiQuery('/api/sessions/fetch/mine', {});
  const { mutate: revoke } = useApiAction('/api/sessions/revoke/mine', {
    success: () => ({ title: '该会话已下线', description: '那台设备需要重新登录' }),
  });
  const columns: ColumnsType<OwnSession> = [
    {
      title: '设备',
      dataIndex: 'userAgent',
      key: 'userAgent',
      render: (v: string | null, s) => (
        <Space size={4}>
          <AgentCell value={v} device={s.device} />
          {s.current ? <Tag color="blue">当前会话</Tag> : null}
        </Space>
      ),
    },
    {
      title: 'IP',
      dataIndex: 'ip',
      key: 'ip',
      render: (v: string | null) => v || <span className="list-muted">-</span>,
    },
    timeColumn('最近活跃', 'lastUsedAt', false),
    timeColumn('登录时间', 'createdAt', false),
    {
      title: '操作',
      key: 'actions',
      render: (_, s) =>
        s.current ? (
          <span className="list-muted">使用“退出登录”</span>
        ) : (
          <ConfirmLink
            title="下线该会话"
            description="那台设备上的登录将立即失效。"
            okText="下线"
            danger
            onConfirm={() => untilSettled(revoke, { id: s.id })}
          >
            下线
          </ConfirmLink>
        ),
    },
  ];
  return (
    <Card title="登录会话" extra={<span className="list-muted">同一账号最多保留 10 个会话</span>}>
      <Table<OwnSession>
        rowKey="id"
        size="middle"
        loading={sessions.isLoading}
        columns={columns}
        dataSource={sessions.data?.list ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '没有其他登录会话' }}
      />
    </Card>
  );
}

/** /admin/admin/account (个人中心): the signed-in operator's profile, password, second factor and sessions. */
export default function AccountPage() {
  const [passwordOpen, setPasswordOpen] = useState(false);
  const watermarkMode = useWatermarkMode();
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <ProfileCard />
      <Card title="安全">
        <Space wrap>
          <span>定期更换密码；修改后其他设备上的登录会全部失效。</span>
          <Button onClick={() => setPasswordOpen(true)}>修改密码…</Button>
        </Space>
      </Card>
      <TwoFactorCard />
      <Card title="水印">
        <Space wrap>
          <span>在页面上淡淡地显示你的名字和手机尾号，截图外传时可以追溯。</span>
          <Radio.Group
            value={watermarkMode}
            onChange={(event) => setWatermarkMode(event.target.value as WatermarkMode)}
            optionType="button"
            options={[
              { value: 'sensitive', label: '用户、流水、订单等页面' },
              { value: 'all', label: '所有页面' },
              { value: 'off', label: '关闭' },
            ]}
          />
        </Space>
      </Card>
      <SessionsCard />
      <PasswordModal open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </Space>
  );
}
