import { Input } from 'antd';
import './totp.css';

/**
 * The six boxes of an authenticator's code: digits only (a pasted code with spaces is cleaned),
 * filled in by the phone's keyboard or the browser's one-time-code suggestion. antd answers once
 * all six are filled, and `onComplete` sends the code then, without a click. To clear it (a wrong
 * code), the parent gives it a new `key`.
 */
export function CodeInput({
  onComplete,
  disabled,
  autoFocus,
}: {
  onComplete: (code: string) => void;
  disabled?: boolean;
  autoFocus?: boolean;
}) {
  return (
    <Input.OTP
      className="totp-code-input"
      length={6}
      size="large"
      disabled={disabled}
      autoFocus={autoFocus}
      autoComplete="one-time-code"
      role="group"
      aria-label="6 位验证码"
      formatter={(text) => text.replace(/\D/g, '')}
      onChange={(code) => {
        if (/^\d{6}$/.test(code)) onComplete(code);
      }}
    />
  );
}
