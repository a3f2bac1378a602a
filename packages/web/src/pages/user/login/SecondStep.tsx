import { totpRules } from '@appdesk/contract/rules/totp';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { CodeInput } from '../../../components/totp/CodeInput';
import { type Sent, send } from '../../../components/writes';

interface RecoveryValues {
  recoveryCode: string;
}

/**
 * 两步验证, the second step of signing in: the password was right and the account has two-factor
 * sign-in. The authenticator's 6-digit code is sent as soon as it is complete; 「使用恢复码」 takes
 * one of the recovery codes instead (each works once). Wrong codes count like wrong passwords.
 */
export function SecondStep({
  challenge,
  onSignedIn,
  onBack,
}: {
  challenge: string;
  onSignedIn: (sent: Sent<'/api/users/login/totp'>) => void;
  /** Back to the password form (a challenge lasts 5 minutes). */
  onBack: () => void;
}) {
  const [recovery, setRecovery] = useState(false);
  const [sending, setSending] = useState(false);
  // A new key clears the six boxes after a wrong code.
  const [attempt, setAttempt] = useState(0);

  const submit = async (given: { code: string } | { recoveryCode: string }) => {
    setSending(true);
    try {
      const sent = await send('/api/users/login/totp', { challenge, ...given });
      if (sent) onSignedIn(sent);
      else setAttempt((n) => n + 1);
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="user-card" aria-labelledby="second-step-title">
      <h1 id="second-step-title">两步验证</h1>
      {recovery ? (
        <Form<RecoveryValues>
          layout="vertical"
          size="large"
          requiredMark={false}
          autoComplete="off"
          onFinish={(values) => void submit({ recoveryCode: values.recoveryCode.trim() })}
        >
          <p className="totp-hint">输入开启两步验证时保存的恢复码。每个恢复码只能使用一次。</p>
          <Form.Item
            label="恢复码"
            name="recoveryCode"
            rules={[
              { required: true, message: '请输入恢复码' },
              { pattern: totpRules.recoveryCode.pattern, message: totpRules.recoveryCode.message },
            ]}
          >
            <Input placeholder="abcd-efgh-jkmn" autoFocus spellCheck={false} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" block loading={sending}>
              登录
            </Button>
          </Form.Item>
        </Form>
      ) : (
        <>
          <p className="totp-hint">打开手机上的验证器 App，输入它显示的 6 位验证码。</p>
          <CodeInput key={attempt} autoFocus disabled={sending} onComplete={(code) => void submit({ code })} />
        </>
      )}
      <p className="totp-links">
        <Button type="link" onClick={() => setRecovery(!recovery)}>
          {recovery ? '使用验证码' : '使用恢复码'}
        </Button>
        <Button type="link" onClick={onBack}>
          返回重新登录
        </Button>
      </p>
    </section>
  );
}
