import type { AdminUser, ApiOutput } from '@appdesk/contract/types';
import { Alert, Button, Descriptions, Modal, Popconfirm, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';
import { untilSettled } from '../../../components/writes';

type Reset = ApiOutput<'/api/users/reset/password'>;

/**
 * 重置密码: a new random initial password, shown once. The user's sessions end at once and the next
 * sign-in must change the password before anything else.
 */
export function ResetPasswordButton({ user, self }: { user: AdminUser; self: boolean }) {
  const [result, setResult] = useState<Reset | null>(null);
  const reset = useApiAction('/api/users/reset/password', {
    success: () => ({ title: `已重置 ${user.name} 的密码`, description: '其登录会话已全部失效' }),
  });
  const confirm = () =>
    untilSettled(
      (input: { id: number }, options: { onSettled: () => void }) =>
        reset.mutate(input, { ...options, onSuccess: (answer) => setResult(answer) }),
      { id: user.id },
    );
  return (
    <>
      <Popconfirm
        title="重置密码"
        description={`确定重置 ${user.name} 的密码吗？将生成新的初始密码，其所有登录会话立即失效，下次登录须先修改密码。`}
        okText="重置"
        okButtonProps={{ danger: true }}
        cancelText="取消"
        onConfirm={confirm}
        disabled={self}
      >
        <Tooltip title={self ? '修改自己的密码请使用右上角的“修改密码”' : undefined}>
          <Button disabled={self}>重置密码</Button>
        </Tooltip>
      </Popconfirm>
      <Modal
        title="新的初始密码"
        open={result !== null}
        onCancel={() => setResult(null)}
        footer={
          <Button type="primary" onClick={() => setResult(null)}>
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
    </>
  );
}
