import { DEFAULT_APP, exchangeKinds } from '@appdesk/contract/constants';
import type { ApiInput, ApiOutput } from '@appdesk/contract/types';
import { DatePicker, Form, Input, InputNumber, Select, Space, Switch } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { uploadFinder } from '../../../api/request';
import { AppSelect, useBlankInApp } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { ImageUploader } from '../../../components/admin/ImageUploader';
import { useEditor } from '../../../components/admin/useEditor';
import { formRules, inputLimits, rules } from '../../../components/rules';

type Item = ApiOutput<'/api/exchange/item/fetch/detail'>['item'];
type Kind = ApiInput<'/api/exchange/item/make'>['kind'];

interface Values {
  name: string;
  image: string;
  description: string;
  kind: Kind;
  value: number;
  costCoins: number;
  unlimited: boolean;
  stock: number;
  perUserLimit: number;
  window: [Dayjs | null, Dayjs | null] | null;
  sort: number;
  enabled: boolean;
  app: string;
}

const blank: Values = {
  app: DEFAULT_APP,
  name: '',
  image: '',
  description: '',
  kind: 'vip_days',
  value: 7,
  costCoins: 100,
  unlimited: false,
  stock: 100,
  perUserLimit: 0,
  window: null,
  sort: 0,
  enabled: false,
};

const toValues = (i: Item): Values => ({
  app: i.app,
  name: i.name,
  image: i.image,
  description: i.description,
  kind: i.kind,
  value: i.value,
  costCoins: i.costCoins,
  unlimited: i.stock === null,
  stock: i.stock ?? 0,
  perUserLimit: i.perUserLimit,
  window: i.startsAt || i.endsAt ? [i.startsAt ? dayjs(i.startsAt) : null, i.endsAt ? dayjs(i.endsAt) : null] : null,
  sort: i.sort,
  enabled: i.enabled,
});

const toInput = (v: Values) => ({
  app: v.app,
  name: v.name.trim(),
  image: v.image,
  description: v.description.trim(),
  kind: v.kind,
  value: v.kind === 'vip_days' || v.kind === 'coins' ? v.value : 0,
  costCoins: v.costCoins,
  stock: v.kind === 'code' ? null : v.unlimited ? null : v.stock,
  perUserLimit: v.perUserLimit,
  startsAt: v.window?.[0]?.toISOString() ?? null,
  endsAt: v.window?.[1]?.toISOString() ?? null,
  sort: v.sort,
  enabled: v.enabled,
});

/** 新建商品 / 编辑商品: what the item gives, its price in coins, stock, limit and window. */
export function ItemEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/exchange/item/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const make = useApiAction('/api/exchange/item/make');
  const update = useApiAction('/api/exchange/item/update');
  const item = id !== null ? detail.data?.item : undefined;
  const kind = Form.useWatch('kind', form);
  const unlimited = Form.useWatch('unlimited', form);
  const image = Form.useWatch('image', form);

  // A new item is sold in the app the console works in (the header's switcher).
  const blankInApp = useBlankInApp(blank);
  const save = useEditor({
    form,
    target,
    record: item,
    blank: blankInApp,
    toValues,
    toInput,
    make: make.mutate,
    update: update.mutate,
    onClose,
    // A product's kind is fixed once made; a code product's stock is its imported codes.
    updatable: ({ kind: _kind, ...changes }, record) => {
      if (record.kind === 'code') delete changes.stock;
      return changes;
    },
  });

  const uploadImage = async (file: File, onProgress: (p: number) => void) => {
    const answer = await uploadFinder(file, onProgress);
    const url = (answer.data as { url?: string } | undefined)?.url;
    if (answer.code !== 200 || !url) return false;
    form.setFieldValue('image', url);
    return true;
  };

  const grants = kind === 'vip_days' || kind === 'coins';
  return (
    <EditorDrawer
      title={id === null ? '新建兑换商品' : '编辑兑换商品'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={id !== null && !item}
    >
      <Form form={form} name="exchange-item" layout="vertical" autoComplete="off" initialValues={blankInApp}>
        <Form.Item label="应用" name="app" extra="商品在该应用的积分商城里出售">
          <AppSelect />
        </Form.Item>
        <Form.Item label="商品名称" name="name" rules={formRules(rules.exchangeName)}>
          <Input placeholder="例如：7 天会员" showCount {...inputLimits(rules.exchangeName)} />
        </Form.Item>
        <Form.Item name="image" hidden>
          <Input />
        </Form.Item>
        <div style={{ marginBottom: 24 }}>
          <ImageUploader
            label="商品图片"
            src={image || null}
            buttonText="上传图片"
            onUpload={uploadImage}
            path="/api/finder/single"
          />
        </div>
        <Form.Item label="商品说明" name="description" rules={formRules(rules.exchangeDescription)}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} showCount {...inputLimits(rules.exchangeDescription)} />
        </Form.Item>
        <Space wrap size={16} align="start">
          <Form.Item label="商品类型" name="kind" extra={id !== null ? '类型创建后不能修改' : undefined}>
            <Select
              style={{ width: 160 }}
              disabled={id !== null}
              options={exchangeKinds.map((k) => ({ value: k.value, label: k.label }))}
            />
          </Form.Item>
          {grants ? (
            <Form.Item
              label={kind === 'vip_days' ? '会员天数' : '发放金币'}
              name="value"
              rules={formRules({ ...rules.exchangeValue, min: 1, max: kind === 'vip_days' ? 36_500 : 1_000_000_000 })}
            >
              <InputNumber<number> precision={0} min={1} suffix={kind === 'vip_days' ? '天' : '金币'} />
            </Form.Item>
          ) : null}
          <Form.Item label="所需金币" name="costCoins" rules={formRules(rules.exchangeCost)}>
            <InputNumber<number> precision={0} {...inputLimits(rules.exchangeCost)} suffix="金币" />
          </Form.Item>
        </Space>
        {kind === 'code' ? (
          <p className="list-muted">兑换码商品的库存等于尚未发放的兑换码数量：保存后在列表中点“导入兑换码”。</p>
        ) : (
          <Space wrap size={16} align="start">
            <Form.Item label="不限库存" name="unlimited" valuePropName="checked">
              <Switch checkedChildren="不限" unCheckedChildren="限量" />
            </Form.Item>
            {unlimited ? null : (
              <Form.Item label="库存" name="stock" rules={formRules(rules.exchangeStock)}>
                <InputNumber<number> precision={0} {...inputLimits(rules.exchangeStock)} suffix="件" />
              </Form.Item>
            )}
          </Space>
        )}
        <Space wrap size={16} align="start">
          <Form.Item label="每人限兑" name="perUserLimit" rules={formRules(rules.perUserLimit)} extra="0 表示不限">
            <InputNumber<number> precision={0} {...inputLimits(rules.perUserLimit)} suffix="次" />
          </Form.Item>
          <Form.Item label="排序" name="sort" rules={formRules(rules.sort)} extra="数字小的在前">
            <InputNumber<number> precision={0} {...inputLimits(rules.sort)} />
          </Form.Item>
          <Form.Item label="上架" name="enabled" valuePropName="checked">
            <Switch checkedChildren="上架" unCheckedChildren="下架" />
          </Form.Item>
        </Space>
        <Form.Item label="兑换时间" name="window" extra="不填表示上架期间一直可兑换">
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            allowEmpty={[true, true]}
            placeholder={['开始时间', '结束时间']}
            style={{ width: '100%' }}
          />
        </Form.Item>
      </Form>
    </EditorDrawer>
  );
}
