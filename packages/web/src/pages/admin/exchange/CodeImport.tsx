import { InboxOutlined } from '@ant-design/icons';
import { MAX_CODES_PER_IMPORT } from '@appdesk/contract/constants';
import { Alert, Input, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';

/** An .xlsx file as base64 (the server reads its first column); CSV and text files are read here. */
async function readFile(file: File): Promise<{ text: string } | { xlsxBase64: string }> {
  if (/\.xlsx$/i.test(file.name)) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { xlsxBase64: btoa(binary) };
  }
  return { text: await file.text() };
}

/** 导入兑换码: paste codes (one per line or comma) or choose a CSV / .xlsx file; repeats are skipped. */
export function CodeImport({ item, onClose }: { item: { id: number; name: string } | null; onClose: () => void }) {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const detail = useApiQuery('/api/exchange/item/fetch/detail', { id: item?.id ?? 1 }, { enabled: item !== null });
  const send = useApiAction('/api/exchange/code/import', {
    success: (r) => ({
      title: `已导入 ${r.added} 个兑换码`,
      description: `${r.skipped ? `跳过重复 ${r.skipped} 个，` : ''}当前可发放 ${r.stock} 个`,
    }),
  });
  const close = () => {
    setText('');
    setFile(null);
    onClose();
  };
  const submit = async () => {
    if (!item) return;
    const body = file ? await readFile(file) : { text };
    send.mutate({ itemId: item.id, ...body }, { onSuccess: close });
  };
  const codes = detail.data?.codes;
  const count = text.split(/[\r\n,;\t]+/).filter((c) => c.trim()).length;
  return (
    <EditorModal
      title={`导入兑换码：${item?.name ?? ''}`}
      open={item !== null}
      onCancel={close}
      changed={text.trim() !== '' || file !== null}
      onOk={() => void submit()}
      okText="导入"
      cancelText="取消"
      okButtonProps={{ disabled: !file && count === 0, loading: send.isPending }}
      destroyOnHidden
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {codes ? (
          <Typography.Text type="secondary">
            已导入 {codes.total} 个，已发放 {codes.used} 个，可发放 {codes.total - codes.used}{' '}
            个。每个兑换码只会发给一位用户。
          </Typography.Text>
        ) : null}
        <Input.TextArea
          aria-label="兑换码"
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={file !== null}
          autoSize={{ minRows: 5, maxRows: 12 }}
          placeholder={'每行一个兑换码，也可以用逗号分隔，例如：\nVIP-8K2D-Q7PM\nVIP-3HF9-LX2A'}
        />
        <Typography.Text type="secondary">
          {count > 0 ? `已粘贴 ${count} 个；` : ''}一次最多 {MAX_CODES_PER_IMPORT.toLocaleString('zh-CN')}{' '}
          个，重复的会跳过。
        </Typography.Text>
        <Upload.Dragger
          accept=".csv,.txt,.xlsx"
          maxCount={1}
          beforeUpload={(f) => {
            setFile(f);
            return false;
          }}
          onRemove={() => setFile(null)}
          fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined aria-hidden />
          </p>
          <p>或点击 / 拖入 CSV、TXT 或 Excel（.xlsx）文件</p>
          <p className="list-muted">表格取第一个工作表的第一列</p>
        </Upload.Dragger>
        {file ? <Alert type="info" showIcon title={`将导入文件“${file.name}”中的兑换码`} /> : null}
      </Space>
    </EditorModal>
  );
}
