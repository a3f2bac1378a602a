import { PictureOutlined, UploadOutlined } from '@ant-design/icons';
import { uploadLimits } from '@appdesk/contract/constants';
import { App, Button, Progress, Tooltip, Upload } from 'antd';
import { useState } from 'react';
import './image-uploader.css';
import type { ApiPath } from '@appdesk/contract/types';
import { lacking, useGrants } from '../../state/grants';

interface Props {
  /** Visible label, e.g. "站点 Logo". */
  label: string;
  /** Current image URL or null. */
  src: string | null | undefined;
  buttonText: string;
  /** Uploads the file; reports percent; resolves true on success. */
  onUpload: (file: File, onProgress: (percent: number) => void) => Promise<boolean>;
  /**
   * The endpoint the upload calls, when it asks a permission of its own (`/api/finder/single`:
   * 文件管理 · 上传文件): without it the button is disabled and says what is missing.
   */
  path?: ApiPath;
}

const accepted = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** An image slot: current picture, an upload button and a visible progress bar. */
export function ImageUploader({ label, src, buttonText, onUpload, path }: Props) {
  const { message } = App.useApp();
  const { canCall } = useGrants();
  const refused = path && !canCall(path) ? lacking(path) : null;
  const [percent, setPercent] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);

  return (
    <div className="image-slot">
      <div className="image-slot-label">{label}</div>
      <div className="image-slot-preview">
        {src ? (
          <img src={src} alt={`当前${label}`} />
        ) : (
          <span className="image-slot-empty">
            <PictureOutlined aria-hidden="true" />
            <span>尚未上传{label}</span>
          </span>
        )}
      </div>
      <Upload
        accept={accepted.join(',')}
        showUploadList={false}
        maxCount={1}
        disabled={refused !== null}
        beforeUpload={(file) => {
          if (!accepted.includes(file.type)) {
            void message.error('只能上传 PNG、JPG、GIF 或 WebP 图片');
            return Upload.LIST_IGNORE;
          }
          if (file.size > uploadLimits.image) {
            void message.error('图片不能超过 10 MB');
            return Upload.LIST_IGNORE;
          }
          return true;
        }}
        customRequest={({ file, onProgress, onSuccess, onError }) => {
          setFailed(false);
          setPercent(0);
          onUpload(file as File, (p) => {
            setPercent(p);
            onProgress?.({ percent: p });
          })
            .then((ok) => {
              setFailed(!ok);
              setPercent(ok ? 100 : null);
              if (ok) onSuccess?.({});
              else onError?.(new Error('上传失败'));
            })
            .catch((error: Error) => {
              setFailed(true);
              setPercent(null);
              onError?.(error);
            });
        }}
      >
        <Tooltip title={refused}>
          <Button
            icon={<UploadOutlined aria-hidden />}
            loading={percent !== null && percent < 100}
            disabled={refused !== null}
          >
            {buttonText}
          </Button>
        </Tooltip>
      </Upload>
      {percent !== null ? (
        <Progress
          percent={percent}
          size="small"
          status={percent < 100 ? 'active' : 'success'}
          aria-label={`${label}上传进度`}
        />
      ) : null}
      {failed ? <div className="image-slot-failed">上传没有成功，请重试。</div> : null}
      <div className="image-slot-hint">{refused ?? '支持 PNG、JPG、GIF、WebP，不超过 10 MB'}</div>
    </div>
  );
}
