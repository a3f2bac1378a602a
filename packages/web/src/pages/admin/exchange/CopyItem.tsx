import { exchangeKinds } from '@appdesk/contract/constants';
import type { ApiInput } from '@appdesk/contract/types';
import { Form, Radio } from 'antd';
import { useEffect } from 'react';
import { useApiAction } from '../../../api/hooks';
import { EditorModal } from '../../../components/admin/EditorModal';

type Kind = NonNullable<ApiInput<'/api/exchange/item/copy'>['kind']>;
export interface CopySource {
  id: number;
  name: string;
  kind: Kind;
}

/**
 * 复制: the item becomes a new, unlisted one (its type may change; codes and records stay with the
 * original), and the editor opens on the copy so the operator checks it before listing it.
 */
export function CopyItem({
  source,
  onClose,
  onCopied,
}: {
  source: CopySource | null;
  onClose: () => void;
  onCopied: (id: number) => void;
}) {
  const [form] = Form.useForm<{ kind: Kind }>();
  const copy = useApiAction('/api/exchange/item/copy');
  useEffect(() => {
    if (source) form.setFieldsValue({ kind: source.kind });
  }, [source, form]);
  const submit = () => {
    if (!source) return;
    const kind = form.getFieldValue('kind') as Kind;
    copy.mutate(
      { id: source.id, ...(kind !== source.kind ? { kind } : {}) },
      {
        onSuccess: ({ item }) => {
          onClose();
          onCopied(item.id);
        },
      },
    );
  };
  return (
    <EditorModal
      title="复制商品"
      open={source !== null}
      onOk={submit}
      onCancel={onClose}
      okText="复制并编辑"
      cancelText="取消"
      confirmLoading={copy.isPending}
      destroyOnHidden
    >
      <p>
        把“{source?.name}”复制为一个新的<strong>未上架</strong>商品，复制后打开编辑。兑换码和兑换记录不会复制。
      </p>
      <Form form={form} name="exchange-copy" layout="vertical">
        <Form.Item label="新商品的类型" name="kind" extra="商品创建后类型不能修改，如需换类型请在这里选择">
          <Radio.Group options={exchangeKinds.map((k) => ({ value: k.value, label: k.label }))} />
        </Form.Item>
      </Form>
    </EditorModal>
  );
}
