import { Alert, Button, Form, Input, Result, Spin } from 'antd';
import { useState } from 'react';
import { hashPassword } from '../../api/hash';
import { notify } from '../../api/notify';
import { PasswordRuleList } from '../../components/PasswordRuleList';
import { formRules, inputLimits, operatorPasswordFormRule, phoneRules, rules } from '../../components/rules';
import { navigate } from '../../nav';
import { allocationStore, initAllocation, loadAllocation } from '../../state/allocation';
import { useStore } from '../../state/store';

interface InitValues {
  phone: string;
  password: string;
  confirm: string;
  title: string;
  slogen?: string;
}

/** /allocation: first-run setup creating the first administrator. */
export default function AllocationInitPage() {
  const allocation = useStore(allocationStore, (s) => s.allocation);
  const loading = useStore(allocationStore, (s) => s.loading);
  const [submitting, setSubmitting] = useState(false);
  // The first administrator is an operator: the operator password rule (等保二级), shown live.
  const [form] = Form.useForm<InitValues>();
  const typed = Form.useWatch('password', form);
  const phone = Form.useWatch('phone', form);

  if (!allocation && loading) {
    return (
      <section className="user-card" style={{ textAlign: 'center', padding: 48 }}>
        <Spin size="large" description="正在读取站点状态…" />
      </section>
    );
  }

  if (!allocation) {
    return (
      <section className="user-card">
        <Result
          status="warning"
          title="无法读取站点状态"
          subTitle="服务器暂时没有响应，请稍后重试。"
          extra={
            <Button type="primary" onClick={() => void loadAllocation(true)}>
              重试
            </Button>
          }
        />
      </section>
    );
  }

  if (allocation.isInit) {
    return (
      <section className="user-card">
        <Result
          status="success"
          title="站点已经初始化"
          subTitle="管理员账号已创建，请直接登录管理后台。"
          extra={
            <Button type="primary" onClick={() => navigate('/user/login')}>
              前往登录
            </Button>
          }
        />
      </section>
    );
  }

  const onFinish = async (values: InitValues) => {
    setSubmitting(true);
    try {
      const done = await initAllocation({
        phone: values.phone.trim(),
        password: hashPassword(values.password),
        // The plain text too, for the server to check the operator rule (never stored or logged).
        plainPassword: values.password,
        title: values.title.trim(),
        slogen: (values.slogen ?? '').trim(),
      });
      if (done) {
        void notify('success', {
          title: '站点初始化成功',
          description: '请使用刚创建的管理员账号登录管理后台。',
        });
        navigate('/user/login');
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <section className="user-card" aria-labelledby="init-title">
      <h1 id="init-title">站点初始化</h1>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 20 }}
        title="首次使用，请创建管理员账号并设置站点信息。初始化只能进行一次。"
      />
      <Form<InitValues> form={form} layout="vertical" requiredMark onFinish={onFinish} autoComplete="off">
        <Form.Item label="手机号" name="phone" rules={phoneRules}>
          <Input
            placeholder="管理员登录用的 11 位手机号"
            inputMode="numeric"
            autoComplete="username"
            {...inputLimits(rules.phone)}
          />
        </Form.Item>
        <Form.Item
          label="密码"
          name="password"
          extra={<PasswordRuleList password={typed} phone={phone?.trim()} />}
          dependencies={['phone']}
          rules={[{ required: true, message: '请输入密码' }, operatorPasswordFormRule(() => phone?.trim())]}
        >
          <Input.Password placeholder="请设置管理员密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          label="确认密码"
          name="confirm"
          dependencies={['password']}
          rules={[
            { required: true, message: '请再次输入密码' },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error('两次输入的密码不一致')),
            }),
          ]}
        >
          <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item label="站点标题" name="title" rules={formRules(rules.siteTitle)}>
          <Input placeholder="例如：滚动截屏" {...inputLimits(rules.siteTitle)} />
        </Form.Item>
        <Form.Item label="标语" name="slogen" rules={formRules(rules.slogen)}>
          <Input placeholder="一句话介绍你的产品（可选）" {...inputLimits(rules.slogen)} />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block size="large" loading={submitting}>
            完成初始化
          </Button>
        </Form.Item>
      </Form>
    </section>
  );
}
