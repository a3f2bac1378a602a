import type { ApiOutput } from '@appdesk/contract/types';
import { Form, Input } from 'antd';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { ImageFields, type Vocabulary } from './ImageFields';

type Image = ApiOutput<'/api/unsplash/fetch/page'>['list'][number];

/** 编辑图片: name, category, tags, author, source, sort and enabled of one image. */
export function ImageEditor({
  image,
  vocabulary,
  onClose,
}: {
  image: Image | null;
  vocabulary: Vocabulary;
  onClose: () => void;
}) {
  const [form] = Form.useForm();
  const save = useApiAction('/api/unsplash/update');
  return (
    <EditorModal
      open={image !== null}
      title="编辑图片"
      okText="保存"
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
      onOk={async () => {
        if (!image) return;
        const values = await form.validateFields();
        save.mutate({ id: image.id, ...values, category: values.category ?? '' }, { onSuccess: onClose });
      }}
    >
      <Form form={form} name="imageEdit" layout="vertical" initialValues={image ?? undefined} key={image?.id}>
        <Form.Item name="name" label="名称" rules={formRules(rules.mediaName)}>
          <Input {...inputLimits(rules.mediaName)} />
        </Form.Item>
        <ImageFields vocabulary={vocabulary} />
      </Form>
    </EditorModal>
  );
}
