import { Button, Result, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { ApiError, callOk } from '../../../api/request';
import { navigate } from '../../../nav';

type Outcome = { state: 'pending' } | { state: 'ok'; email: string } | { state: 'failed'; message: string };

/** One request per token, even when React mounts the page twice. */
const attempts = new Map<string, Promise<Outcome>>();

function validate(token: string): Promise<Outcome> {
  let attempt = attempts.get(token);
  if (!attempt) {
    attempt = callOk('/api/users/validate/email', { token })
      .then((data): Outcome => ({ state: 'ok', email: data.email }))
      .catch(
        (error: unknown): Outcome => ({
          state: 'failed',
          // A coded answer carries the server's reason; anything else is the network.
          message: error instanceof ApiError ? error.message : '网络异常，请稍后重试',
        }),
      );
    attempts.set(token, attempt);
  }
  return attempt;
}

/** /email/validate?token=...: confirms the e-mail address from the link in the mail. */
export default function EmailValidatePage() {
  const token = new URLSearchParams(window.location.search).get('token') ?? '';
  const [outcome, setOutcome] = useState<Outcome>({ state: 'pending' });

  useEffect(() => {
    if (!token) return;
    let live = true;
    void validate(token).then((result) => {
      if (live) setOutcome(result);
    });
    return () => {
      live = false;
    };
  }, [token]);

  const home = (
    <Button type="primary" key="home" onClick={() => navigate('/')}>
      返回首页
    </Button>
  );

  let content: React.ReactNode;
  if (!token) {
    content = (
      <Result
        status="warning"
        title="验证链接不完整"
        subTitle="链接中缺少验证令牌。请从验证邮件中完整复制链接，或在 App 中重新发送验证邮件。"
        extra={home}
      />
    );
  } else if (outcome.state === 'pending') {
    content = (
      <div style={{ textAlign: 'center', padding: 48 }}>
        <Spin size="large" description="正在验证邮箱…" />
      </div>
    );
  } else if (outcome.state === 'ok') {
    content = (
      <Result
        status="success"
        title="邮箱验证成功"
        subTitle={outcome.email ? `邮箱 ${outcome.email} 已验证通过，现在可以关闭此页面。` : '邮箱已验证通过。'}
        extra={home}
      />
    );
  } else {
    content = <Result status="error" title="邮箱验证失败" subTitle={outcome.message} extra={home} />;
  }

  return (
    <section className="user-card" style={{ paddingBottom: 24 }} aria-label="邮箱验证">
      {content}
    </section>
  );
}
