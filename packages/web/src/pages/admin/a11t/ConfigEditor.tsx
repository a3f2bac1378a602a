import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { channels, configTypes, DEFAULT_APP, platforms } from '@appdesk/contract/constants';
import { parseConfigValue } from '@appdesk/contract/rules';
import type { ApiInput, ApiOutput } from '@appdesk/contract/types';
import { Button, Form, Input, InputNumber, Select, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect } from 'react';
import { useApiAction } from '../../../api/hooks';
import { AppSelect, useNewRecordApp } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { formRules, inputLimits, rules } from '../../../components/rules';

type ConfigType = (typeof configTypes)[number]['value'];
type Entry = ApiOutput<'/api/a11t/fetch/page'>['list'][number];
type Override = NonNullable<ApiInput<'/api/a11t/make'>['overrides']>[number];

interface Values {
  app: NonNullable<ApiInput<'/api/a11t/make'>['app']>;
  key: string;
  type: ConfigType;
  value: string;
  description: string;
  overrides: Override[];
}

const blank: Values = { app: DEFAULT_APP, key: '', type: 'string', value: '', description: '', overrides: [] };
const newOverride: Override = {
  channels: [],
  platforms: [],
  minVersionCode: null,
  maxVersionCode: null,
  percent: 100,
  value: '',
};

/** A value box's rule: the value must be one of the chosen type (the same check as the server's). */
const typedRule = (type: ConfigType): Rule => ({
  validator: (_, value: string | undefined) => {
    const parsed = parseConfigValue(type, value ?? '');
    return parsed.ok ? Promise.resolve() : Promise.reject(new Error(`值${parsed.problem}`));
  },
});

function ValueInput({
  type,
  label,
  ...props
}: {
  type: ConfigType;
  label: string;
  /** Form.Item's field id, which its label points at. */
  id?: string;
  value?: string;
  onChange?: (v: string) => void;
}) {
  if (type === 'boolean')
    return (
      <Select
        aria-label={label}
        {...props}
        options={[
          { value: 'true', label: 'true（开）' },
          { value: 'false', label: 'false（关）' },
        ]}
      />
    );
  if (type === 'json')
    return (
      <Input.TextArea
        aria-label={label}
        id={props.id}
        rows={4}
        className="a11t-code"
        placeholder='{"max": 5}'
        value={props.value}
        onChange={(e) => props.onChange?.(e.target.value)}
        {...inputLimits(rules.configValue)}
      />
    );
  return (
    <Input
      aria-label={label}
      id={props.id}
      placeholder={type === 'number' ? '例如 30' : '文本'}
      value={props.value}
      onChange={(e) => props.onChange?.(e.target.value)}
      {...inputLimits(rules.configValue)}
    />
  );
}

/** 新建键值 / 编辑键值: a typed value with conditional overrides, evaluated top-down for each device. */
export function ConfigEditor({ target, onClose }: { target: Entry | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const entry = target !== null && target !== 'new' ? target : undefined;
  const id = entry?.id ?? null;
  const make = useApiAction('/api/a11t/make');
  const update = useApiAction('/api/a11t/update');
  const type = (Form.useWatch('type', form) ?? 'string') as ConfigType;
  // A new key is made in the app the console works in (the header's switcher).
  const app = useNewRecordApp();

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue(entry ? ({ ...blank, ...entry } as Values) : { ...blank, app });
  }, [target, entry, form, app]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const overrides = (values.overrides ?? []).map((o) => ({ ...newOverride, ...o }));
    if (id === null) {
      make.mutate({ ...values, overrides }, { onSuccess: onClose });
      return;
    }
    if (!entry) return;
    const changes: Record<string, unknown> = {};
    if (values.type !== entry.type) changes.type = values.type;
    if (values.value !== entry.value) changes.value = values.value;
    if (values.description !== entry.description) changes.description = values.description;
    if (JSON.stringify(overrides) !== JSON.stringify(entry.overrides)) changes.overrides = overrides;
    if (Object.keys(changes).length === 0) return onClose();
    // The revision this edit started from: a save by someone else in between answers 409.
    update.mutate({ id, baseRevision: entry.revision, ...changes } as ApiInput<'/api/a11t/update'>, {
      onSuccess: onClose,
    });
  };

  return (
    <EditorDrawer
      title={id === null ? '新建键值' : '编辑键值'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      width={720}
    >
      <Form form={form} name="config" layout="vertical" autoComplete="off" initialValues={blank}>
        <div className="a11t-grid">
          <Form.Item label="键名" name="key" rules={formRules(rules.configKey)} className="a11t-grid-wide">
            <Input placeholder="例如 feature.long_shot" disabled={id !== null} {...inputLimits(rules.configKey)} />
          </Form.Item>
          <Form.Item label="应用" name="app">
            <AppSelect disabled={id !== null} />
          </Form.Item>
          <Form.Item label="类型" name="type">
            <Select
              options={configTypes.map((t) => ({ value: t.value, label: t.label }))}
              onChange={() => void form.validateFields(['value']).catch(() => null)}
            />
          </Form.Item>
        </div>
        <Form.Item label="默认值" name="value" rules={[typedRule(type)]} dependencies={['type']}>
          <ValueInput type={type} label="默认值" />
        </Form.Item>
        <Form.Item label="说明" name="description" rules={formRules(rules.description)}>
          <Input placeholder="这个键控制什么" {...inputLimits(rules.description)} />
        </Form.Item>

        <Typography.Title level={5}>条件值</Typography.Title>
        <Typography.Paragraph type="secondary">
          从上到下依次判断，设备满足第一条的全部条件时得到它的值；都不满足时得到默认值。设备比例按设备 ID
          和键名稳定分组，提高比例不会让已得到的设备失去它。
        </Typography.Paragraph>
        <Form.List name="overrides">
          {(items, { add, remove }) => (
            <div className="a11t-overrides">
              {items.map((item, index) => (
                <fieldset key={item.key} className="a11t-override" aria-label={`条件值 ${index + 1}`}>
                  <div className="a11t-override-head">
                    <Typography.Text strong>条件 {index + 1}</Typography.Text>
                    <Button
                      type="text"
                      size="small"
                      icon={<DeleteOutlined aria-hidden />}
                      onClick={() => remove(item.name)}
                    >
                      删除
                    </Button>
                  </div>
                  <div className="a11t-grid">
                    <Form.Item label="渠道" name={[item.name, 'channels']} className="a11t-grid-wide">
                      <Select
                        mode="multiple"
                        aria-label={`条件 ${index + 1} 渠道`}
                        placeholder="所有渠道"
                        options={channels.map((c) => ({ value: c.value, label: c.label }))}
                        showSearch={{ optionFilterProp: 'label' }}
                      />
                    </Form.Item>
                    <Form.Item label="平台" name={[item.name, 'platforms']}>
                      <Select
                        mode="multiple"
                        placeholder="所有平台"
                        options={platforms.map((p) => ({ value: p.value, label: p.label }))}
                      />
                    </Form.Item>
                    <Form.Item label="设备比例（%）" name={[item.name, 'percent']} rules={formRules(rules.percent)}>
                      <InputNumber<number>
                        aria-label={`条件 ${index + 1} 设备比例`}
                        precision={0}
                        min={1}
                        max={100}
                        style={{ width: '100%' }}
                      />
                    </Form.Item>
                    <Form.Item
                      label="最低版本号"
                      name={[item.name, 'minVersionCode']}
                      rules={formRules(rules.currentVersionCode, { required: false })}
                    >
                      <InputNumber<number> precision={0} min={0} placeholder="不限" style={{ width: '100%' }} />
                    </Form.Item>
                    <Form.Item
                      label="最高版本号"
                      name={[item.name, 'maxVersionCode']}
                      rules={formRules(rules.currentVersionCode, { required: false })}
                    >
                      <InputNumber<number> precision={0} min={0} placeholder="不限" style={{ width: '100%' }} />
                    </Form.Item>
                  </div>
                  <Form.Item label="值" name={[item.name, 'value']} rules={[typedRule(type)]} dependencies={['type']}>
                    <ValueInput type={type} label={`条件 ${index + 1} 的值`} />
                  </Form.Item>
                </fieldset>
              ))}
              <Button
                icon={<PlusOutlined aria-hidden />}
                onClick={() => add({ ...newOverride })}
                disabled={items.length >= 20}
              >
                添加条件值
              </Button>
            </div>
          )}
        </Form.List>
      </Form>
    </EditorDrawer>
  );
}
