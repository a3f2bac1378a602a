import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, Button, QRCode, Spin, Typography } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, callSucceeded, HttpError } from '../../api/request';
import { send } from '../writes';
import { CodeInput } from './CodeInput';
import './totp.css';

type Pending = ApiOutput<'/api/totp/make'>;

/** A base32 secret in groups of four, as people read and type it. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/**
 * Binding an authenticator app (个人中心, or the sign-in page when a role requires it): the server
 * makes a secret, shown here as a QR code of its otpauth:// address (and as text to type in);
 * the code the app then shows confirms it, and the answer is the recovery codes, shown once.
 */
export function TotpEnrol({ onEnrolled }: { onEnrolled: (recoveryCodes: string[], message: string) => void }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  // A new key clears the six boxes after a wrong code.
  const [attempt, setAttempt] = useState(0);
  const started = useRef(false);

  const start = useCallback(async () => {
    setFailure(null);
    try {
      // Its refusal (no key configured on the server) is said here, in the dialog, not as a toast.
      setPending((await callSucceeded('/api/totp/make', {}, { silent: true })).data);
    } catch (error) {
      if (error instanceof ApiError || error instanceof HttpError) setFailure(error.message);
      else throw error;
    }
  }, []);
  useEffect(() => {
    // Once per dialog: a second secret would replace the first one's QR code on the server.
    if (started.current) return;
    started.current = true;
    void start();
  }, [start]);

  const confirm = async (code: string) => {
    setConfirming(true);
    try {
      const sent = await send('/api/totp/confirm', { code });
      if (sent) onEnrolled(sent.data.recoveryCodes, sent.message);
      else setAttempt((n) => n + 1);
    } finally {
      setConfirming(false);
    }
  };

  if (failure) {
    return (
      <Alert
        type="error"
        showIcon
        title="无法开始绑定"
        description={failure}
        action={
          <Button size="small" onClick={() => void start()}>
            重试
          </Button>
        }
      />
    );
  }
  if (!pending) {
    return (
      <div className="totp-enrol-loading">
        <Spin size="small" /> 正在生成二维码…
      </div>
    );
  }
  return (
    <div className="totp-enrol">
      <ol className="totp-enrol-steps">
        <li>在手机上安装验证器 App，如 Microsoft Authenticator、Google Authenticator 或腾讯身份验证器。</li>
        <li>在验证器中添加账号，扫描下面的二维码。</li>
        <li>输入验证器显示的 6 位验证码，完成绑定。</li>
      </ol>
      <div className="totp-enrol-qr">
        {/* Black on white in the dark theme too: a camera reads no other. */}
        <QRCode value={pending.uri} size={168} errorLevel="M" color="#000000" bgColor="#ffffff" />
        <div className="totp-enrol-secret">
          <Typography.Text type="secondary">
            无法扫码时，在验证器中选择「输入密钥」，类型选「基于时间」：
          </Typography.Text>
          <Typography.Paragraph copyable={{ text: pending.secret, tooltips: ['复制密钥', '已复制'] }}>
            <code>{grouped(pending.secret)}</code>
          </Typography.Paragraph>
        </div>
      </div>
      <CodeInput key={attempt} onComplete={(code) => void confirm(code)} disabled={confirming} />
      <div className="totp-enrol-state" aria-live="polite">
        {confirming ? <Typography.Text type="secondary">正在验证…</Typography.Text> : null}
      </div>
    </div>
  );
}
