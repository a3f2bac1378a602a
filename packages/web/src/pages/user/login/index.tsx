import { Code } from '@appdesk/contract/codes';
import type { CurrentUser, SecondFactorChallenge } from '@appdesk/contract/types';
import { Alert, Button, Form, Input, Spin } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { hashPassword } from '../../../api/hash';
import { notify, notifyInConsole } from '../../../api/notify';
import { call } from '../../../api/request';
import { AppLink } from '../../../components/AppLink';
import { inputLimits, phoneRules, rules } from '../../../components/rules';
import { shownByClient } from '../../../components/writes';
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
import { SecondStep } from './SecondStep';

// Only an operator whose role requires two-factor sign-in and who has none yet sees it.
const EnrolStep = lazy(() => import('./EnrolStep'));

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
 * After a 433 elsewhere (the console sends the browser here with ?enrol=1): the stored operator
 * must bind an authenticator before the console answers.
 */
function pendingEnrolment(): boolean {
  return (
    new URLSearchParams(window.location.search).get('enrol') === '1' &&
    Boolean(getToken()) &&
    readStoredUser()?.isAdmin === true
  );
}

/** Whether the signed-in operator's role requires two-factor sign-in that they have not set up yet. */
async function enrolmentRequired(): Promise<boolean> {
  const status = await call('/api/totp/fetch/status', {}, { silent: true }).catch(() => null);
  return status?.code === Code.OK && status.data !== undefined && status.data.required && !status.data.enabled;
}

/**
 * /user/login: phone + password, then the authenticator's code for an account with two-factor
 * sign-in. Admins go to the console, everyone else to the home page; an account whose password
 * someone else chose changes it first, and an operator whose role requires two-factor sign-in
 * binds an authenticator first.
 */
export default function LoginPage() {
  const [submitting, setSubmitting] = useState(false);
  const [changing, setChanging] = useState<{ knownOld?: string } | null>(pendingChange);
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const [enrolling, setEnrolling] = useState(pendingEnrolment);
  // The password just typed, for the change form when a second step came between.
  const [typed, setTyped] = useState<string | undefined>();
  useEffect(() => {
    // A reload after binding, or a role that no longer requires it: nothing to bind, on to the console.
    if (!pendingEnrolment()) return;
    void enrolmentRequired().then((required) => {
      if (!required) goOn(true);
    });
  }, []);
  // Why the console sent the operator here (a lapsed token, an expired session, a refusal), if it did.
  const [notice] = useState(() => {
    const search = window.location.search;
    return signOutNotice(search, keptSignOutMessage(Number(new URLSearchParams(search).get('reason'))));
  });

  const signOut = () => {
    // Revoke the token on the server too (allowed before the change); the form returns either way.
    void call('/api/users/logout', {}, { silent: true })
      .catch(() => undefined)
      .finally(() => {
        clearSession();
        setChanging(null);
        setEnrolling(false);
      });
  };

  /** Signed in (and the password changed if it had to be): on to the console, or to binding an authenticator first. */
  const proceed = async (isAdmin: boolean, message?: string) => {
    if (isAdmin && (await enrolmentRequired())) {
      setEnrolling(true);
      return;
    }
    // An admin's notice is shown by the console (the sign-in page's own end when it opens).
    const welcome = { title: message || '登录成功' };
    if (isAdmin) notifyInConsole(welcome);
    else void notify('success', welcome);
    goOn(isAdmin);
  };

  const signedIn = (answer: { token: string; user: CurrentUser }, message: string, password?: string) => {
    const { token, user } = answer;
    saveSession(token, user);
    setChallenge(null);
    if (user.mustChangePassword) {
      setChanging({ knownOld: password });
      return;
    }
    return proceed(user.isAdmin, message);
  };

  if (enrolling) {
    return (
      <Suspense fallback={<Spin />}>
        <EnrolStep onDone={() => goOn(true)} onSignOut={signOut} />
      </Suspense>
    );
  }

  if (changing) {
    return (
      <ForcedChange
        knownOld={changing.knownOld}
        onDone={() => {
          const user = readStoredUser();
          if (user) updateStoredUser({ ...user, mustChangePassword: false });
          setChanging(null);
          void proceed(user?.isAdmin === true);
        }}
        onSignOut={signOut}
      />
    );
  }

  if (challenge) {
    return (
      <SecondStep
        challenge={challenge.challenge}
        onSignedIn={(sent) => void signedIn(sent.data, sent.message, typed)}
        onBack={() => {
          setChallenge(null);
          setTyped(undefined);
        }}
      />
    );
  }

  const onFinish = async (values: LoginValues) => {
    setSubmitting(true);
    try {
      const answer = await call(
        '/api/users/login',
        { phone: values.phone.trim(), password: hashPassword(values.password) },
        { action: true },
      );
      // The password was right and the account has two-factor sign-in: the code comes next.
      if (answer.code === Code.SECOND_FACTOR_REQUIRED) {
        setTyped(values.password);
        setChallenge(answer.data as unknown as SecondFactorChallenge);
        return;
      }
      if (answer.code === Code.OK && answer.data) await signedIn(answer.data, answer.message, values.password);
    } catch (error) {
      // The request client has shown why (a wrong password, a lock, no network).
      if (!shownByClient(error)) throw error;
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
