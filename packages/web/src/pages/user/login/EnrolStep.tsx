import { Alert, Button } from 'antd';
import { useState } from 'react';
import { notify } from '../../../api/notify';
import { RecoveryCodes } from '../../../components/totp/RecoveryCodes';
import { TotpEnrol } from '../../../components/totp/TotpEnrol';

/**
 * 绑定两步验证 after signing in: the operator's role requires two-factor sign-in and they have not
 * enrolled, so every console call answers 433 until they do. Then the recovery codes, once, and on
 * to the console. Loaded only when needed (the QR code stays out of the sign-in page's bundle).
 */
export function EnrolStep({ onDone, onSignOut }: { onDone: () => void; onSignOut: () => void }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  return (
    <section className="user-card user-card-wide" aria-labelledby="enrol-title">
      <h1 id="enrol-title">{codes ? '保存恢复码' : '绑定两步验证'}</h1>
      {codes ? (
        <>
          <RecoveryCodes codes={codes} />
          <Button type="primary" size="large" block onClick={onDone} style={{ marginTop: 20 }}>
            我已保存，进入后台
          </Button>
        </>
      ) : (
        <>
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title="你的角色要求开启两步验证"
            description="绑定验证器 App 后才能使用管理后台。以后登录时，除密码外还需输入验证器上的 6 位验证码。"
          />
          <TotpEnrol
            onEnrolled={(recoveryCodes, message) => {
              void notify('success', { title: message || '两步验证已开启' });
              setCodes(recoveryCodes);
            }}
          />
        </>
      )}
      <Button type="link" block onClick={onSignOut}>
        换个账号登录
      </Button>
    </section>
  );
}
export default EnrolStep;
