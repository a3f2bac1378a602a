import { EyeOutlined } from '@ant-design/icons';
import { Button, Tooltip, Typography } from 'antd';
import { useState } from 'react';

/**
 * A phone as operators see it: masked (138****8000) until the eye is pressed, which asks the
 * server for the whole number (`reveal`, a call the server writes to the operation log).
 */
export function MaskedPhone(props: {
  masked: string;
  /** What the number is, in the eye's words: 手机号, 收货手机号. */
  what: string;
  reveal: (show: (whole: string) => void) => void;
  pending: boolean;
  /** The whole number can be copied (a receiver's, for delivery). */
  copyable?: boolean;
  className?: string;
  eyeClassName?: string;
}) {
  const [whole, setWhole] = useState<string | null>(null);
  if (whole)
    return props.copyable ? (
      <Typography.Text copyable={{ tooltips: ['复制手机号', '已复制'] }}>{whole}</Typography.Text>
    ) : (
      <span className={props.className}>{whole}</span>
    );
  return (
    <span className={props.className}>
      {props.masked}
      <Tooltip title={`查看完整${props.what}（记入操作日志）`}>
        <Button
          type="text"
          size="small"
          className={props.eyeClassName}
          aria-label={`查看完整${props.what}`}
          icon={<EyeOutlined aria-hidden />}
          loading={props.pending}
          onClick={(event) => {
            event.stopPropagation();
            props.reveal(setWhole);
          }}
        />
      </Tooltip>
    </span>
  );
}
