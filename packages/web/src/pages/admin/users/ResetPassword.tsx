import type { ApiOutput } from '@appdesk/contract/types';
import { Alert, Button, Descriptions, Modal, Typography } from 'antd';

type Reset = ApiOutput<'/api/users/reset/password'>;

/**
 * The answer of 重置密码: the new random initial password, shown this once. The user's sessions
 * ended with the reset, and the next sign-in must change the password before anything else.
 */
export function ResetResultModal({ result, onClose }: { result: Reset | null; onClose: () => void }) {
  return (
    <Modal
      title="新的初始密码"
      open={result !== null}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          我已告知用户，关闭
        </Button>
      }
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title="初始密码只显示这一次"
        description="关闭后无法再次查看。用户用它登录后须先设置新密码。"
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
