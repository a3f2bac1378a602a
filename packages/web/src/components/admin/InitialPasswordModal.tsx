import { Alert, Button, Descriptions, Modal, Typography } from 'antd';

/** An account's new initial password, as 重置密码 and 新建操作员 answer it (the phone masked). */
export interface InitialPassword {
  phone: string;
  password: string;
}

/**
 * A random initial password someone else chose, shown this once with a copy button: the account's
 * sessions ended with it, and its next sign-in must change it before anything else.
 */
export function InitialPasswordModal({
  result,
  onClose,
  title = '新的初始密码',
  who = '用户',
}: {
  result: InitialPassword | null;
  onClose: () => void;
  title?: string;
  /** Whom the password is for: 用户, 操作员. */
  who?: string;
}) {
  return (
    <Modal
      title={title}
      open={result !== null}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          我已告知{who}，关闭
        </Button>
      }
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title="初始密码只显示这一次"
        description={`关闭后无法再次查看。${who}用它登录后须先设置新密码。`}
      />
      {result ? (
        <Descriptions
          bordered
          size="small"
          column={1}
          items={[
            { key: 'phone', label: '手机号', children: result.phone },
            {
              key: 'password',
              label: '初始密码',
              children: (
                <Typography.Text code copyable={{ text: result.password }}>
                  {result.password}
                </Typography.Text>
              ),
            },
          ]}
        />
      ) : null}
    </Modal>
  );
}
