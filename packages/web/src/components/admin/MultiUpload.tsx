import { InboxOutlined, RedoOutlined } from '@ant-design/icons';
import { Button, Progress, Typography, Upload } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { HttpError, upload } from '../../api/request';
import './multi-upload.css';

/** What one file's upload came to: kept, or refused with the server's (or the network's) reason. */
export type SendResult<T> = { ok: true; result: T; note?: string } | { ok: false; message: string };

/**
 * Sends one file to an upload endpoint with form fields, as MultiUpload wants it: a refusal comes
 * back as its Chinese message (shown beside the file, not as a notification per file).
 */
export async function sendFile<T>(
  path: string,
  file: File,
  fields: Record<string, unknown>,
  onProgress: (percent: number) => void,
): Promise<SendResult<T>> {
  try {
    const body = await upload<{ code: number; message?: string; data?: T }>(path, {
      files: { file },
      fields,
      onProgress,
      quietCodes: true,
      silent: true,
    });
    return body.code === 200
      ? { ok: true, result: body.data as T }
      : { ok: false, message: body.message || '上传失败' };
  } catch (error) {
    if (error instanceof HttpError && error.status === 413) return { ok: false, message: '文件过大' };
    return { ok: false, message: (error as Error)?.message || '上传失败，请重试' };
  }
}

interface Props<T> {
  /** The file input's `accept` (a hint only: the server decides by the bytes). */
  accept?: string;
  /** What the drop area says, e.g. "拖拽图片到这里，或点击选择（可多选）". */
  hint: string;
  /** Limits shown under the hint, e.g. "PNG、JPG、GIF、WebP，每张不超过 10 MB". */
  note?: string;
  /** Sends one file; never throws for a refusal (answers `ok: false` with the reason instead). */
  send: (file: File, onProgress: (percent: number) => void) => Promise<SendResult<T>>;
  onDone?: (result: T, file: File) => void;
  /** Files sent at the same time. */
  parallel?: number;
}

interface Item {
  uid: string;
  file: File;
  phase: 'waiting' | 'sending' | 'done' | 'failed';
  percent: number;
  /** Why it failed, or what happened instead of a plain success (e.g. the file was already there). */
  message?: string;
}

let nextUid = 0;

/**
 * Drag-and-drop upload of many files at once: each file has its own progress bar, a refused one
 * shows why and can be sent again, the others carry on.
 */
export function MultiUpload<T>({ accept, hint, note, send, onDone, parallel = 3 }: Props<T>) {
  const [items, setItems] = useState<Item[]>([]);
  const running = useRef(0);
  const latest = useRef({ send, onDone });
  latest.current = { send, onDone };

  const patch = useCallback((uid: string, change: Partial<Item>) => {
    setItems((list) => list.map((item) => (item.uid === uid ? { ...item, ...change } : item)));
  }, []);

  // Starts waiting files while fewer than `parallel` are on their way.
  useEffect(() => {
    const free = parallel - running.current;
    for (const item of items.filter((i) => i.phase === 'waiting').slice(0, Math.max(0, free))) {
      running.current += 1;
      patch(item.uid, { phase: 'sending', percent: 0, message: undefined });
      latest.current
        .send(item.file, (percent) => patch(item.uid, { percent }))
        .catch((error: Error) => ({ ok: false as const, message: error?.message || '网络连接失败，请重试' }))
        .then((outcome) => {
          running.current -= 1;
          if (outcome.ok) {
            patch(item.uid, { phase: 'done', percent: 100, message: outcome.note });
            latest.current.onDone?.(outcome.result, item.file);
          } else {
            patch(item.uid, { phase: 'failed', message: outcome.message });
          }
        });
    }
  }, [items, parallel, patch]);

  const add = (file: File) => {
    nextUid += 1;
    const uid = `u${nextUid}`;
    setItems((list) => [...list, { uid, file, phase: 'waiting', percent: 0 }]);
  };

  const done = items.filter((i) => i.phase === 'done').length;
  const failed = items.filter((i) => i.phase === 'failed').length;

  return (
    <div className="multi-upload">
      <Upload.Dragger
        accept={accept}
        multiple
        showUploadList={false}
        customRequest={({ file }) => add(file as File)}
        className="multi-upload-drop"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined aria-hidden />
        </p>
        <p className="ant-upload-text">{hint}</p>
        {note ? <p className="ant-upload-hint">{note}</p> : null}
      </Upload.Dragger>
      {items.length ? (
        <>
          <div className="multi-upload-summary">
            <Typography.Text type="secondary">
              共 {items.length} 个文件：成功 {done} 个{failed ? `，失败 ${failed} 个` : ''}
            </Typography.Text>
            {failed ? (
              <Button
                size="small"
                icon={<RedoOutlined aria-hidden />}
                onClick={() =>
                  setItems((list) => list.map((i) => (i.phase === 'failed' ? { ...i, phase: 'waiting' } : i)))
                }
              >
                全部重试
              </Button>
            ) : null}
            {done && !items.some((i) => i.phase === 'sending' || i.phase === 'waiting') ? (
              <Button
                size="small"
                type="link"
                onClick={() => setItems((list) => list.filter((i) => i.phase !== 'done'))}
              >
                清除已完成
              </Button>
            ) : null}
          </div>
          <ul className="multi-upload-list" aria-label="上传队列">
            {items.map((item) => (
              <li key={item.uid} className={`multi-upload-item multi-upload-${item.phase}`}>
                <Typography.Text ellipsis={{ tooltip: item.file.name }} className="multi-upload-name">
                  {item.file.name}
                </Typography.Text>
                <Progress
                  percent={item.percent}
                  size="small"
                  aria-label={`${item.file.name} 上传进度`}
                  status={
                    item.phase === 'done'
                      ? 'success'
                      : item.phase === 'failed'
                        ? 'exception'
                        : item.phase === 'sending'
                          ? 'active'
                          : 'normal'
                  }
                />
                <span className="multi-upload-state">
                  {item.phase === 'failed' ? (
                    <>
                      <Typography.Text type="danger">{item.message}</Typography.Text>
                      <Button
                        size="small"
                        type="link"
                        onClick={() => patch(item.uid, { phase: 'waiting', percent: 0 })}
                        aria-label={`重试 ${item.file.name}`}
                      >
                        重试
                      </Button>
                    </>
                  ) : (
                    <Typography.Text type="secondary">
                      {
                        {
                          waiting: '等待上传',
                          sending: item.percent >= 100 ? '服务器正在处理…' : '正在上传…',
                          done: item.message ?? '上传成功',
                        }[item.phase]
                      }
                    </Typography.Text>
                  )}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}
