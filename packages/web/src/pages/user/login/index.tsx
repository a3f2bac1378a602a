import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { hashPassword } from '../../../api/hash';
import { notify, notifyInConsole } from '../../../api/notify';
import { call } from '../../../api/request';
import { AppLink } from '../../../components/AppLink';
import { inputLimits, phoneRules, rules } from '../../../components/rules';
import { send } from '../../../components/writes';
import { navigate } from '../../../nav';
import {
  clearSession,
  getToken,
  keptSignOutMessage,
  readStoredUser,
  safeReturnPath,
  saveSession,
  signOutNotice,
  updateStoredUser,
} from '../../../state/session';
import { ForcedChange } from './ForcedChange';

interface LoginValues {
  phone: string;
  password: string;
}

/**
 * Where a signed-in account goes next: admins back to the console page they were sent from (or the
 * dashboard), everyone else home.
 */
function goOn(isAdmin: boolean) {
  const back = safeReturnPath(new URLSearchParams(window.location.search).get('redirect'));
  navigate(isAdmin ? (back ?? '/admin/admin/dashboard') : '/');
}

/**
 * After a reload (or a 428 elsewhere, which sends the browser here with ?change=1): the stored
 * session still has a password to change.
 */
function pendingChange(): { knownOld?: string } | null {
  const user = readStoredUser();
  return user?.mustChangePassword && getToken() ? {} : null;
}

/**
 * /user/login: phone + password. Admins go to the console, everyone else to the home page; an
 * account whose password someone else chose changes it first.
 */
export default function LoginPage() {
  const [submitting, setSubmitting] = useState(false);
  const [changing, setChanging] = useState<{ knownOld?: string } | null>(pendingChange);
  // Why the console sent the operator here (a lapsed token, an expired session, a refusal), if it did.
  const [notice] = useState(() => {
    const search = window.location.search;
    return signOutNotice(search, keptSignOutMessage(Number(new URLSearchParams(search).get('reason'))));
  });

  if (changing) {
    return (
      <ForcedChange
        knownOld={changing.knownOld}
        onDone={() => {
          const user = readStoredUser();
          if (user) updateStoredUser({ ...user, mustChangePassword: false });
          setChanging(null);
          goOn(user?.isAdmin === true);
        }}
        onSignOut={() => {
          // Revoke the token on the server too (allowed before the change); the form returns either way.
          void call('/api/users/logout', {}, { silent: true })
            .catch(() => undefined)
            .finally(() => {
              clearSession();
              setChanging(null);
            });
        }}
      />
    );
  }

  const onFinish = async (values: LoginValues) => {
    setSubmitting(true);
    try {
      const sent = await send('/api/users/login', {
        phone: values.phone.trim(),
        password: hashPassword(values.password),
      });
      if (sent) {
        const { token, user } = sent.data;
        saveSession(token, user);
        if (user.mustChangePassword) {
          setChanging({ knownOld: values.password });
          return;
        }
        // An admin's notice is shown by the console (the sign-in page's own end when it opens).
        const welcome = { title: sent.message || '登录成功' };
        if (user.isAdmin) notifyInConsole(welcome);
        else void notify('success', welcome);
        goOn(user.isAdmin);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <section className="user-card" aria-labelledby="login-title">
      <h1 id="login-title">账号登录</h1>
      {notice ? (
        <Alert
          type="warning"
          showIcon
          title={notice.title}
          description={notice.description}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <Form<LoginValues> layout="vertical" size="large" requiredMark={false} onFinish={onFinish} autoComplete="on">
        <Form.Item label="手机号" name="phone" rules={phoneRules}>
          <Input
            placeholder="请输入 11 位手机号"
            inputMode="numeric"
            autoComplete="username"
            {...inputLimits(rules.phone)}
          />
        </Form.Item>
        <Form.Item label="密码" name="password" rules={[{ required: true, message: '请输入密码' }]}>
          <Input.Password placeholder="请输入密码" autoComplete="current-password" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            登录
          </Button>
        </Form.Item>
      </Form>
      <p style={{ textAlign: 'center', margin: '0 0 16px', color: '#4e5969' }}>
        <AppLink href="/">返回首页</AppLink>
      </p>
    </section>
  );
}
