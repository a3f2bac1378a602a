import { type ChannelCode, channels, DEFAULT_APP } from '@appdesk/contract/constants';
import { formatDate } from '@appdesk/contract/format';
import { reservedPhonePrefix } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, Button, Form, Input, InputNumber, Modal, Select, Table, Typography } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { downloadCsv } from '../../../components/download';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useApps, useCurrentApp } from '../../../state/apps';

type Account = ApiOutput<'/api/users/generate'>['accounts'][number];

interface Values {
  count: number;
  phonePrefix: string;
  app: string;
  channel: ChannelCode;
}

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
  const [accounts, setAccounts] = useState<Account[] | null>(null);
  // New accounts register in the app the console works in, else the default app.
  const currentApp = useCurrentApp();
  const appOptions = useApps().options;
  const generate = useApiAction('/api/users/generate', {
    success: ({ accounts: list }) => ({ title: `已生成 ${list.length} 个账号`, description: 'CSV 文件已开始下载' }),
  });

  const close = () => {
    // The passwords are shown once: closing forgets them.
    setAccounts(null);
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    generate.mutate(
      {
        count: values.count,
        phonePrefix: (values.phonePrefix ?? '').trim(),
        app: values.app,
        channel: values.channel,
      },
      {
        onSuccess: ({ accounts: list }) => {
          setAccounts(list);
          if (list.length > 0) saveAccounts(list);
        },
      },
    );
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
    <EditorModal
      title="批量生成账号"
      open={open}
      onOk={() => void submit()}
      onCancel={close}
      okText="生成"
      cancelText="取消"
      confirmLoading={generate.isPending}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        autoComplete="off"
        initialValues={{ count: 10, phonePrefix: '', app: currentApp ?? DEFAULT_APP, channel: 'other' }}
        onFinish={() => void submit()}
      >
        <Form.Item
          label="数量"
          name="count"
          extra={`一次最多 ${rules.generateCount.max} 个，每个账号有独立的随机初始密码`}
          rules={formRules(rules.generateCount)}
        >
          <InputNumber<number>
            {...inputLimits(rules.generateCount)}
            precision={0}
            style={{ width: '100%' }}
            suffix="个"
          />
        </Form.Item>
        <Form.Item
          label="号段"
          name="phonePrefix"
          extra={`生成的手机号都在保留号段 ${reservedPhonePrefix} 开头（运营商不发放，不会是真实用户的号码）；这里可再指定其后的数字，留空则随机`}
          rules={formRules(rules.phonePrefix)}
        >
          <Input
            prefix={reservedPhonePrefix}
            placeholder="例如 2026"
            inputMode="numeric"
            {...inputLimits(rules.phonePrefix)}
          />
        </Form.Item>
        <Form.Item label="应用" name="app" rules={[{ required: true, message: '请选择应用' }]}>
          <Select options={appOptions} />
        </Form.Item>
        <Form.Item label="渠道" name="channel" rules={[{ required: true, message: '请选择渠道' }]}>
          <Select options={channelOptions} showSearch={{ optionFilterProp: 'label' }} />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}
