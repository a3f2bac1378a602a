import { Code } from '@appdesk/contract/codes';
import { type AppCode, apps, type ChannelCode, channels } from '@appdesk/contract/constants';
import { formatDate } from '@appdesk/contract/format';
import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, App, Button, Form, Input, InputNumber, Modal, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { call } from '../../../api/request';
import { downloadCsv } from '../../../components/download';
import { useRefreshUsers } from './actions';

type Account = ApiOutput<'/api/users/generate'>['accounts'][number];

interface Values {
  count: number;
  phonePrefix: string;
  app: AppCode;
  channel: ChannelCode;
}

const appOptions = apps.map((a) => ({ value: a.value, label: a.label }));
const channelOptions = channels.map((c) => ({ value: c.value, label: c.label }));

function saveAccounts(accounts: Account[]) {
  downloadCsv(
    `生成账号-${formatDate(Date.now())}.csv`,
    ['手机号', '初始密码', 'ID'],
    accounts.map((a) => [a.phone, a.password, a.id]),
  );
}

/** 生成账号: batch-creates accounts, downloads them as CSV at once and shows the passwords one time. */
export function GenerateModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const { notification } = App.useApp();
  const refresh = useRefreshUsers();
  const [saving, setSaving] = useState(false);
  const [accounts, setAccounts] = useState<Account[] | null>(null);

  const close = () => {
    // The passwords are shown once: closing forgets them.
    setAccounts(null);
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const res = await call('/api/users/generate', {
        count: values.count,
        phonePrefix: (values.phonePrefix ?? '').trim(),
        app: values.app,
        channel: values.channel,
      });
      if (res.code === Code.OK && res.data) {
        const list = res.data.accounts;
        setAccounts(list);
        if (list.length > 0) saveAccounts(list);
        notification.success({ title: `已生成 ${list.length} 个账号`, description: 'CSV 文件已开始下载' });
        void refresh();
      }
    } catch {
      // The request client already showed the error.
    } finally {
      setSaving(false);
    }
  };

  if (accounts) {
    return (
      <Modal
        title={`已生成 ${accounts.length} 个账号`}
        open={open}
        onCancel={close}
        width={640}
        footer={[
          <Button key="csv" onClick={() => saveAccounts(accounts)} disabled={accounts.length === 0}>
            再次下载 CSV
          </Button>,
          <Button key="done" type="primary" onClick={close}>
            我已保存，关闭
          </Button>,
        ]}
      >
        <Alert
          type="warning"
          showIcon
          title="初始密码只显示这一次"
          description="关闭后无法再次查看。CSV 文件（手机号、初始密码、ID）已自动下载，请妥善保存并尽快分发给用户。"
          style={{ marginBottom: 12 }}
        />
        <Table<Account>
          size="small"
          rowKey="id"
          dataSource={accounts}
          pagination={accounts.length > 10 ? { pageSize: 10, showSizeChanger: false, size: 'small' } : false}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: '手机号', dataIndex: 'phone' },
            {
              title: '初始密码',
              dataIndex: 'password',
              render: (password: string) => <Typography.Text copyable>{password}</Typography.Text>,
            },
            { title: 'ID', dataIndex: 'id' },
          ]}
        />
      </Modal>
    );
  }

  return (
    <Modal
      title="批量生成账号"
      open={open}
      onOk={() => void submit()}
      onCancel={close}
      okText="生成"
      cancelText="取消"
      confirmLoading={saving}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={{ count: 10, phonePrefix: '', app: apps[0].value, channel: 'other' }}
        onFinish={() => void submit()}
      >
        <Form.Item
          label="数量"
          name="count"
          extra="一次最多 1000 个，每个账号有独立的随机初始密码"
          rules={[
            { required: true, message: '请输入数量' },
            { type: 'integer', min: 1, max: 1000, message: '数量应为 1 到 1000 的整数' },
          ]}
        >
          <InputNumber<number> min={1} max={1000} precision={0} style={{ width: '100%' }} suffix="个" />
        </Form.Item>
        <Form.Item
          label="号段"
          name="phonePrefix"
          extra="手机号开头的数字，例如 170；留空则随机"
          rules={[{ pattern: /^(|1[3-9]\d{0,8})$/, message: '号段应为以 13–19 开头、最多 10 位的数字' }]}
        >
          <Input placeholder="例如 170" inputMode="numeric" maxLength={10} />
        </Form.Item>
        <Form.Item label="应用" name="app" rules={[{ required: true, message: '请选择应用' }]}>
          <Select options={appOptions} />
        </Form.Item>
        <Form.Item label="渠道" name="channel" rules={[{ required: true, message: '请选择渠道' }]}>
          <Select options={channelOptions} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
