import type { ApiOutput } from '@appdesk/contract/types';
import { AutoComplete, Form, Input, InputNumber, Modal, Switch } from 'antd';
import { useRef } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { MultiUpload, sendFile } from '../../../components/admin/MultiUpload';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { formatSize } from '../../../components/size';

export type Sound = ApiOutput<'/api/soundeffect/fetch/page'>['list'][number];
type Made = ApiOutput<'/api/soundeffect/make'>;

function CategoryField({ categories }: { categories: string[] }) {
  return (
    <Form.Item name="category" label="分类" rules={formRules(rules.category)}>
      <AutoComplete
        options={categories.filter(Boolean).map((c) => ({ value: c }))}
        placeholder="例如 提示音、按键音，留空为未分类"
        {...inputLimits(rules.category)}
        allowClear
      />
    </Form.Item>
  );
}

/** 上传音效: the batch's category, then any number of audio files; a file already kept is offered instead. */
export function UploadSounds(props: {
  open: boolean;
  onClose: () => void;
  categories: string[];
  category: string;
  maxBytes: number;
  onUploaded: (made: Made) => void;
}) {
  const [form] = Form.useForm();
  const validating = useRef<Promise<unknown> | null>(null);
  return (
    <Modal open={props.open} title="上传音效" onCancel={props.onClose} footer={null} width={680} destroyOnHidden>
      <Form
        form={form}
        name="soundUpload"
        layout="vertical"
        initialValues={{ category: props.category, enabled: true }}
      >
        <CategoryField categories={props.categories} />
      </Form>
      <MultiUpload<Made>
        accept="audio/*,.mp3,.m4a,.aac,.wav,.ogg,.flac"
        hint="拖拽音频到这里，或点击选择（可多选）"
        note={`mp3、m4a/aac、wav、ogg、flac，每个不超过 ${formatSize(props.maxBytes)}；相同的文件不会重复保存`}
        send={async (file, onProgress) => {
          try {
            validating.current ??= form.validateFields().finally(() => {
              validating.current = null;
            });
            await validating.current;
          } catch {
            return { ok: false, message: '请先修正上方表单中的错误' };
          }
          const values = form.getFieldsValue();
          const sent = await sendFile<Made>(
            '/api/soundeffect/make',
            file,
            { category: values.category ?? '' },
            onProgress,
          );
          if (sent.ok && sent.result.duplicate) {
            return { ...sent, note: `已有相同的音效「${sent.result.sound.name}」，未重复保存` };
          }
          return sent;
        }}
        onDone={props.onUploaded}
      />
    </Modal>
  );
}

/** 编辑音效: name, category, sort, enabled. */
export function SoundEditor({
  sound,
  categories,
  onClose,
}: {
  sound: Sound | null;
  categories: string[];
  onClose: () => void;
}) {
  const [form] = Form.useForm();
  const save = useApiAction('/api/soundeffect/update');
  return (
    <EditorModal
      open={sound !== null}
      title="编辑音效"
      okText="保存"
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
      onOk={async () => {
        if (!sound) return;
        const values = await form.validateFields();
        save.mutate({ id: sound.id, ...values, category: values.category ?? '' }, { onSuccess: onClose });
      }}
    >
      <Form form={form} name="soundEdit" layout="vertical" initialValues={sound ?? undefined} key={sound?.id}>
        <Form.Item name="name" label="名称" rules={formRules(rules.mediaName)}>
          <Input {...inputLimits(rules.mediaName)} />
        </Form.Item>
        <CategoryField categories={categories} />
        <Form.Item name="sort" label="排序" rules={formRules(rules.sort)} extra="数字越小越靠前">
          <InputNumber {...inputLimits(rules.sort)} precision={0} />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked" extra="停用的音效 App 中不显示">
          <Switch checkedChildren="启用" unCheckedChildren="停用" />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}
