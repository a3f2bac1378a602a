import type { ApiOutput } from '@appdesk/contract/types';
import { Form, Modal } from 'antd';
import { useRef } from 'react';
import { MultiUpload, sendFile } from '../../../components/admin/MultiUpload';
import { formatSize } from '../../../components/size';
import { ImageFields, type Vocabulary } from './ImageFields';

type Made = ApiOutput<'/api/unsplash/make'>;

interface Props {
  open: boolean;
  onClose: () => void;
  /** The category filtered on when the dialog opened: new images go there by default. */
  category: string;
  vocabulary: Vocabulary;
  onUploaded: () => void;
  maxBytes: number;
}

/** 上传图片: the batch's category, tags and author, then any number of images dropped at once. */
export function UploadModal({ open, onClose, category, vocabulary, onUploaded, maxBytes }: Props) {
  const [form] = Form.useForm();
  const validating = useRef<Promise<unknown> | null>(null);
  return (
    <Modal open={open} title="上传图片" onCancel={onClose} footer={null} width={720} destroyOnHidden>
      <Form
        form={form}
        name="imageUpload"
        layout="vertical"
        className="unsplash-upload-form"
        initialValues={{ category, tags: [], author: '', sourceUrl: '', enabled: true }}
      >
        <ImageFields vocabulary={vocabulary} compact />
      </Form>
      <MultiUpload<Made>
        accept="image/png,image/jpeg,image/gif,image/webp"
        hint="拖拽图片到这里，或点击选择（可多选）"
        note={`PNG、JPG、GIF、WebP，每张不超过 ${formatSize(maxBytes)}；以上分类、标签等信息用于本次上传的全部图片`}
        send={async (file, onProgress) => {
          try {
            // Files start together: they share one check of the form (antd refuses overlapping ones).
            validating.current ??= form.validateFields().finally(() => {
              validating.current = null;
            });
            await validating.current;
          } catch {
            return { ok: false, message: '请先修正上方表单中的错误' };
          }
          const values = form.getFieldsValue();
          const sent = await sendFile<Made>(
            '/api/unsplash/make',
            file,
            { ...values, category: values.category ?? '' },
            onProgress,
          );
          if (sent.ok && sent.result.duplicate) {
            return { ...sent, note: `图库中已有相同的图片「${sent.result.image.name}」，未重复保存` };
          }
          return sent;
        }}
        onDone={onUploaded}
      />
    </Modal>
  );
}
