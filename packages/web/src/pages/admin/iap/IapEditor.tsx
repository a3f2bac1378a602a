import { DEFAULT_APP, iapProductTypes, platforms } from '@appdesk/contract/constants';
import { fenToYuan, yuanTextToFen } from '@appdesk/contract/format';
import type { ApiInput, ApiOutput } from '@appdesk/contract/types';
import { Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { AppSelect, useBlankInApp } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { useEditor } from '../../../components/admin/useEditor';
import { InWords, yuanRule } from '../../../components/money';
import { formRules, inputLimits, rules } from '../../../components/rules';

type Product = ApiOutput<'/api/iap/fetch/detail'>['product'];
type MakeInput = ApiInput<'/api/iap/make'>;

interface Values {
  app: MakeInput['app'];
  platform: MakeInput['platform'];
  productId: string;
  type: MakeInput['type'];
  name: string;
  price: string;
  vipDays: number;
  coins: number;
  enabled: boolean;
}

const blank: Values = {
  app: DEFAULT_APP,
  platform: 'ios',
  productId: '',
  type: 'subscription',
  name: '',
  price: '',
  vipDays: 0,
  coins: 0,
  enabled: true,
};

const toValues = (p: Product): Values => ({
  app: p.app as Values['app'],
  platform: p.platform,
  productId: p.productId,
  type: p.type,
  name: p.name,
  price: fenToYuan(p.price),
  vipDays: p.vipDays,
  coins: p.coins,
  enabled: p.enabled,
});

const toInput = (v: Values) => ({
  app: v.app,
  platform: v.platform,
  productId: v.productId.trim(),
  type: v.type,
  name: v.name.trim(),
  price: yuanTextToFen(v.price) ?? 0,
  vipDays: v.vipDays,
  coins: v.coins,
  enabled: v.enabled,
});

const options = (list: readonly { value: string; label: string }[]) =>
  list.map((o) => ({ value: o.value, label: o.label }));

/** 新建内购商品 / 编辑内购商品: price typed in yuan (sent as fen); what a verified purchase grants. */
export function IapEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/iap/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const make = useApiAction('/api/iap/make');
  const update = useApiAction('/api/iap/update');
  const product = id !== null ? detail.data?.product : undefined;
  const price = Form.useWatch('price', form);
  // A new product is made in the app the console works in (the header's switcher).
  const blankInApp = useBlankInApp(blank);

  const save = useEditor({
    form,
    target,
    record: product,
    blank: blankInApp,
    toValues,
    toInput,
    make: make.mutate,
    update: update.mutate,
    onClose,
  });

  return (
    <EditorDrawer
      title={id === null ? '新建内购商品' : '编辑内购商品'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={id !== null && !product}
      width={600}
    >
      <Form form={form} name="iap" layout="vertical" autoComplete="off" initialValues={blank}>
        <Space wrap size={16} align="start">
          <Form.Item label="应用" name="app">
            <AppSelect style={{ width: 160 }} />
          </Form.Item>
          <Form.Item label="平台" name="platform">
            <Select style={{ width: 140 }} options={options(platforms)} />
          </Form.Item>
          <Form.Item label="商品类型" name="type">
            <Select style={{ width: 180 }} options={options(iapProductTypes)} />
          </Form.Item>
        </Space>
        <Form.Item
          label="商品 ID"
          name="productId"
          rules={formRules(rules.iapProductId)}
          extra="与 App Store Connect 或 Google Play 管理中心里的商品 ID 完全一致"
        >
          <Input placeholder="例如 com.example.tailor.vip.month" {...inputLimits(rules.iapProductId)} />
        </Form.Item>
        <Form.Item label="商品名称" name="name" rules={formRules(rules.iapName)}>
          <Input placeholder="例如：连续包月" showCount {...inputLimits(rules.iapName)} />
        </Form.Item>
        <Form.Item label="价格（元）" name="price" rules={[yuanRule('价格', true)]} extra={<InWords text={price} />}>
          <Input prefix="¥" inputMode="decimal" placeholder="例如 18.00" style={{ maxWidth: 240 }} />
        </Form.Item>
        <Space wrap size={16} align="start">
          <Form.Item label="发放会员天数" name="vipDays" rules={formRules(rules.iapVipDays)} extra="不发放会员填 0">
            <InputNumber<number> precision={0} {...inputLimits(rules.iapVipDays)} suffix="天" />
          </Form.Item>
          <Form.Item label="发放金币" name="coins" rules={formRules(rules.iapCoins)} extra="不发放金币填 0">
            <InputNumber<number> precision={0} {...inputLimits(rules.iapCoins)} suffix="金币" />
          </Form.Item>
          <Form.Item label="启用" name="enabled" valuePropName="checked">
            <Switch checkedChildren="启用" unCheckedChildren="停用" />
          </Form.Item>
        </Space>
      </Form>
    </EditorDrawer>
  );
}
