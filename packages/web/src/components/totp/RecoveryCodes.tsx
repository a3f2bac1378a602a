import { CopyOutlined, DownloadOutlined } from '@ant-design/icons';
import { Alert, Button, Space } from 'antd';
import { notify } from '../../api/notify';
import { saveBlob } from '../download';
import './totp.css';

/**
 * The one-time recovery codes, shown this once (the server keeps only their digests): each signs
 * in once in place of a code when the phone is lost. Copied all at once, or saved as a text file.
 */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const text = codes.join('\n');
  const copy = () => {
    const done = navigator.clipboard?.writeText(text);
    if (!done) {
      void notify('error', { title: '无法复制', description: '浏览器不允许复制，请改用「下载为文本文件」或手动抄写' });
      return;
    }
    done.then(
      () => void notify('success', { title: `已复制 ${codes.length} 个恢复码`, description: '请粘贴到安全的地方保存' }),
      () => void notify('error', { title: '无法复制', description: '浏览器不允许复制，请改用「下载为文本文件」' }),
    );
  };
  const download = () => {
    const lines = [
      '两步验证恢复码（每个只能使用一次）',
      `生成时间：${new Date().toLocaleString('zh-CN', { hour12: false })}`,
      '',
      ...codes,
      '',
    ];
    saveBlob(new Blob([lines.join('\n')], { type: 'text/plain;charset=utf-8' }), '两步验证恢复码.txt');
  };
  return (
    <div className="totp-recovery">
      <Alert
        type="warning"
        showIcon
        title="请立即保存这些恢复码，它们只显示这一次"
        description="手机丢失或验证器无法使用时，每个恢复码可代替验证码登录一次。"
      />
      <ol className="totp-codes" aria-label="恢复码">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <Space wrap>
        <Button icon={<CopyOutlined />} onClick={copy}>
          复制全部
        </Button>
        <Button icon={<DownloadOutlined />} onClick={download}>
          下载为文本文件
        </Button>
      </Space>
    </div>
  );
}
