import { operatorPasswordChecks } from '@appdesk/contract/rules/users';
import { Typography } from 'antd';

/** Read out, not shown: whether a line is met (the mark before it is for the eye). */
const screenReaderOnly = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

/** The site's own colours (base.css), which keep their contrast in the light and the dark theme. */
const colors = {
  met: 'var(--app-success)',
  missing: 'var(--app-danger)',
  waiting: 'var(--app-text-secondary)',
} as const;

/**
 * The operator password rule (等保二级) under a new-password field, line by line, each marked met or
 * not as the password is typed: the contract's checks, the same the server makes on the plain text
 * the form sends beside the digest. Plain marks rather than icons: the sign-in and setup pages stay light.
 */
export function PasswordRuleList({ password, phone }: { password: string | undefined; phone?: string | null }) {
  const typed = Boolean(password);
  const checks = operatorPasswordChecks(password ?? '', phone);
  return (
    <div className="password-rule" style={{ marginTop: 4 }}>
      <Typography.Text type="secondary">操作员密码规则：</Typography.Text>
      <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {checks.map((check) => {
          const state = !typed ? 'waiting' : check.ok ? 'met' : 'missing';
          return (
            <li key={check.key} data-state={state}>
              <Typography.Text style={{ color: colors[state] }}>
                <span aria-hidden="true">{state === 'met' ? '✓' : state === 'missing' ? '✗' : '·'} </span>
                {check.label}
                <span style={screenReaderOnly}>
                  {state === 'met' ? '（已满足）' : state === 'missing' ? '（未满足）' : ''}
                </span>
              </Typography.Text>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
