import { DEFAULT_APP } from '@appdesk/contract/constants';
import { fenToYuan, yuanTextToFen } from '@appdesk/contract/format';
import type { ApiInput, ApiOutput } from '@appdesk/contract/types';
import { Form, Input, InputNumber, Space, Switch } from 'antd';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { AppSelect, useBlankInApp } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { useEditor } from '../../../components/admin/useEditor';
import { InWords, yuanRule } from '../../../components/money';
import { formRules, inputLimits, rules } from '../../../components/rules';

type Plan = ApiOutput<'/api/plan/fetch/detail'>['plan'];
type MakeInput = ApiInput<'/api/plan/make'>;

interface Values {
  app: MakeInput['app'];
  name: string;
  description: string;
  price: string;
  originalPrice: string;
  lifetime: boolean;
  durationDays: number;
  bonusCoins: number;
  iosProductId: string;
  androidProductId: string;
  sort: number;
  onSale: boolean;
  badge: string;
}

const blank: Values = {
  app: DEFAULT_APP,
  name: '',
  description: '',
  price: '',
  originalPrice: '',
  lifetime: false,
  durationDays: 30,
  bonusCoins: 0,
  iosProductId: '',
  androidProductId: '',
  sort: 0,
  onSale: false,
  badge: '',
};

const toValues = (p: Plan): Values => ({
  app: p.app as Values['app'],
  name: p.name,
  description: p.description,
  price: fenToYuan(p.price),
  originalPrice: p.originalPrice ? fenToYuan(p.originalPrice) : '',
  lifetime: p.durationDays === null,
  durationDays: p.durationDays ?? 30,
  bonusCoins: p.bonusCoins,
  iosProductId: p.iosProductId,
  androidProductId: p.androidProductId,
  sort: p.sort,
  onSale: p.onSale,
  badge: p.badge,
});

const toInput = (v: Values) => ({
  app: v.app,
  name: v.name.trim(),
  description: v.description.trim(),
  price: yuanTextToFen(v.price) ?? 0,
  originalPrice: v.originalPrice.trim() ? (yuanTextToFen(v.originalPrice) ?? 0) : 0,
  lifetime: v.lifetime,
  durationDays: v.durationDays,
  bonusCoins: v.bonusCoins,
  iosProductId: v.iosProductId.trim(),
  androidProductId: v.androidProductId.trim(),
  sort: v.sort,
  onSale: v.onSale,
  badge: v.badge.trim(),
});

/** 新建套餐 / 编辑套餐: amounts typed in yuan (sent as fen), with the upper-case amount beneath. */
export function PlanEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/plan/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const make = useApiAction('/api/plan/make');
  const update = useApiAction('/api/plan/update');
  const plan = id !== null ? detail.data?.plan : undefined;
  const lifetime = Form.useWatch('lifetime', form);
  const price = Form.useWatch('price', form);
  const originalPrice = Form.useWatch('originalPrice', form);
  // A new plan is made in the app the console works in (the header's switcher).
  const blankInApp = useBlankInApp(blank);

  const save = useEditor({
    form,
    target,
    record: plan,
    blank: blankInApp,
    toValues,
    toInput,
    make: make.mutate,
    update: update.mutate,
    onClose,
  });

  return (
    <EditorDrawer
      title={id === null ? '新建套餐' : '编辑套餐'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={id !== null && !plan}
    >
      <Form form={form} name="plan" layout="vertical" autoComplete="off" initialValues={blank}>
        <Form.Item label="套餐名称" name="name" rules={formRules(rules.planName)}>
          <Input placeholder="例如：年度会员" showCount {...inputLimits(rules.planName)} />
        </Form.Item>
        <Form.Item label="应用" name="app">
          <AppSelect />
        </Form.Item>
        <Form.Item label="套餐说明" name="description" rules={formRules(rules.planDescription)}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} showCount {...inputLimits(rules.planDescription)} />
        </Form.Item>
        <Space.Compact block style={{ gap: 16, display: 'flex', flexWrap: 'wrap' }}>
          <Form.Item
            label="售价（元）"
            name="price"
            rules={[yuanRule('售价', true)]}
            extra={<InWords text={price} />}
            style={{ flex: '1 1 200px' }}
          >
            <Input prefix="¥" inputMode="decimal" placeholder="例如 98.00" />
          </Form.Item>
          <Form.Item
            label="原价（元，可不填）"
            name="originalPrice"
            rules={[yuanRule('原价', false)]}
            extra={<InWords text={originalPrice} />}
            style={{ flex: '1 1 200px' }}
          >
            <Input prefix="¥" inputMode="decimal" placeholder="划线价，例如 198.00" />
          </Form.Item>
        </Space.Compact>
        <Space wrap size={16} align="start">
          <Form.Item label="永久会员" name="lifetime" valuePropName="checked">
            <Switch checkedChildren="永久" unCheckedChildren="按天" />
          </Form.Item>
          {lifetime ? null : (
            <Form.Item label="时长（天）" name="durationDays" rules={formRules(rules.durationDays)}>
              <InputNumber<number> precision={0} {...inputLimits(rules.durationDays)} suffix="天" />
            </Form.Item>
          )}
          <Form.Item label="赠送金币" name="bonusCoins" rules={formRules(rules.bonusCoins)}>
            <InputNumber<number> precision={0} {...inputLimits(rules.bonusCoins)} suffix="金币" />
          </Form.Item>
          <Form.Item label="排序" name="sort" rules={formRules(rules.sort)} extra="数字小的在前">
            <InputNumber<number> precision={0} {...inputLimits(rules.sort)} />
          </Form.Item>
        </Space>
        <Form.Item
          label="iOS 内购商品 ID"
          name="iosProductId"
          rules={formRules(rules.productId)}
          extra="iOS 上只展示配置了内购商品 ID 的套餐"
        >
          <Input placeholder="例如 com.example.tailor.vip.year" {...inputLimits(rules.productId)} />
        </Form.Item>
        <Form.Item label="Android 内购商品 ID" name="androidProductId" rules={formRules(rules.productId)}>
          <Input placeholder="Google Play 商品 ID，可不填" {...inputLimits(rules.productId)} />
        </Form.Item>
        <Space wrap size={16} align="start">
          <Form.Item label="角标" name="badge" rules={formRules(rules.badge)}>
            <Input placeholder="例如 限时优惠" showCount {...inputLimits(rules.badge)} />
          </Form.Item>
          <Form.Item label="上架" name="onSale" valuePropName="checked">
            <Switch checkedChildren="在售" unCheckedChildren="下架" />
          </Form.Item>
        </Space>
      </Form>
    </EditorDrawer>
  );
}
