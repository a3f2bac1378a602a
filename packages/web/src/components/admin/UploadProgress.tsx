import { CloseOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Typography, Upload } from 'antd';
import { useRef, useState } from 'react';
import './upload-progress.css';

interface Props<T> {
  buttonText: string;
  /** The file input's `accept` (a hint only: the server decides by the bytes). */
  accept?: string;
  /** Label of the progress bar for screen readers, e.g. "安装包上传进度". */
  progressLabel: string;
  /** Sends the file; resolves to the result, or null when the server refused it (already notified). */
  send: (file: File, onProgress: (percent: number) => void, signal: AbortSignal) => Promise<T | null>;
  onDone?: (result: T, file: File) => void;
  disabled?: boolean;
}

type State =
  | { phase: 'idle' }
  | { phase: 'sending'; name: string; percent: number }
  | { phase: 'done' | 'failed' | 'cancelled'; name: string; percent: number };

/** An upload button with a visible progress bar and a cancel button while the file is on its way. */
export function UploadProgress<T>({ buttonText, accept, progressLabel, send, onDone, disabled }: Props<T>) {
  const [state, setState] = useState<State>({ phase: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const sending = state.phase === 'sending';

  const start = (file: File) => {
    const abort = new AbortController();
    controller.current = abort;
    setState({ phase: 'sending', name: file.name, percent: 0 });
    send(file, (percent) => setState((s) => (s.phase === 'sending' ? { ...s, percent } : s)), abort.signal)
      .then((result) => {
        if (result === null) {
          setState((s) => ({ phase: 'failed', name: file.name, percent: 'percent' in s ? s.percent : 0 }));
          return;
        }
        setState({ phase: 'done', name: file.name, percent: 100 });
        onDone?.(result, file);
      })
      .catch((error: Error) => {
        const cancelled = error?.name === 'AbortError';
        setState((s) => ({
          phase: cancelled ? 'cancelled' : 'failed',
          name: file.name,
          percent: 'percent' in s ? s.percent : 0,
        }));
      })
      .finally(() => {
        if (controller.current === abort) controller.current = null;
      });
  };

  return (
    <div className="upload-progress">
      <Space wrap>
        <Upload
          accept={accept}
          showUploadList={false}
          maxCount={1}
          disabled={disabled || sending}
          customRequest={({ file }) => start(file as File)}
        >
          <Button icon={<UploadOutlined aria-hidden />} loading={sending} disabled={disabled}>
            {buttonText}
          </Button>
        </Upload>
        {sending ? (
          <Button icon={<CloseOutlined aria-hidden />} onClick={() => controller.current?.abort()}>
            取消上传
          </Button>
        ) : null}
      </Space>
      {state.phase !== 'idle' ? (
        <div className="upload-progress-line">
          <Typography.Text ellipsis={{ tooltip: state.name }} className="upload-progress-name">
            {state.name}
          </Typography.Text>
          <Progress
            percent={state.percent}
            size="small"
            aria-label={progressLabel}
            status={
              state.phase === 'sending'
                ? 'active'
                : state.phase === 'done'
                  ? 'success'
                  : state.phase === 'failed'
                    ? 'exception'
                    : 'normal'
            }
          />
          <Typography.Text type="secondary" className="upload-progress-state">
            {
              {
                sending: state.percent >= 100 ? '服务器正在校验文件…' : '正在上传…',
                done: '上传成功',
                failed: '上传失败',
                cancelled: '已取消上传',
              }[state.phase]
            }
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}
