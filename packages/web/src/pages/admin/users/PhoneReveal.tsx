import { EyeOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useState } from 'react';
import { useApiAction } from '../../../api/hooks';

/**
 * A user's phone as operators see it: masked (138****8000) until the eye is pressed, which asks
 * the server for the whole number; every such look is a row in the operation log.
 */
export function PhoneReveal({ id, masked }: { id: number; masked: string }) {
  const reveal = useApiAction('/api/users/fetch/phone', { refreshes: [] });
  const [phone, setPhone] = useState<string | null>(null);
  if (phone) return <span className="user-phone">{phone}</span>;
  return (
    <span className="user-phone">
      {masked}
      <Tooltip title="查看完整手机号（记入操作日志）">
        <Button
          type="text"
          size="small"
          className="user-phone-eye"
          aria-label="查看完整手机号"
          icon={<EyeOutlined aria-hidden />}
          loading={reveal.isPending}
          onClick={(event) => {
            event.stopPropagation();
            reveal.mutate({ id }, { onSuccess: (answer) => setPhone(answer.phone) });
          }}
        />
      </Tooltip>
    </span>
  );
}
