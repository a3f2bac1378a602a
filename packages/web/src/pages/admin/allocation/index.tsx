import type { TextRule } from '@appdesk/contract/rules';
import { Button, Card, Form, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { ImageUploader } from '../../../components/admin/ImageUploader';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { allocationStore, loadAllocation, updateAllocation, uploadAllocationImage } from '../../../state/allocation';
import { useStore } from '../../../state/store';
import './allocation.css';

type FieldKey = 'title' | 'qq' | 'slogen' | 'about';

const paths = {
  title: '/api/allocation/update/title',
  qq: '/api/allocation/update/qq/account',
  slogen: '/api/allocation/update/slogen',
  about: '/api/allocation/update/about',
} as const;

/** One setting, one small form with its own save button. */
function SettingForm({
  field,
  label,
  value,
  buttonText,
  multiline,
  placeholder,
  rule,
}: {
  field: FieldKey;
  label: string;
  value: string;
  buttonText: string;
  multiline?: boolean;
  placeholder: string;
  /** The contract's rule of the field: its limits, pattern and messages. */
  rule: TextRule;
}) {
  const [form] = Form.useForm<Record<FieldKey, string>>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    form.setFieldsValue({ [field]: value });
  }, [form, field, value]);

  const onFinish = async (values: Record<FieldKey, string>) => {
    setSaving(true);
    try {
      const next = (values[field] ?? '').trim();
      if (field === 'title') await updateAllocation(paths.title, { title: next });
      else if (field === 'qq') await updateAllocation(paths.qq, { qq: next });
      else if (field === 'slogen') await updateAllocation(paths.slogen, { slogen: next });
      else await updateAllocation(paths.about, { about: values.about ?? '' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={onFinish} initialValues={{ [field]: value }} className="setting-form">
      <Form.Item label={label} name={field} rules={formRules(rule)}>
        {multiline ? (
          <Input.TextArea
            placeholder={placeholder}
            autoSize={{ minRows: 4, maxRows: 12 }}
            {...inputLimits(rule)}
            showCount
          />
        ) : (
          <Input placeholder={placeholder} {...inputLimits(rule)} />
        )}
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving}>
        {buttonText}
      </Button>
    </Form>
  );
}

/** /admin/admin/allocation (站点配置): images with progress, title, QQ, slogen and about. */
export default function AllocationSettingsPage() {
  const allocation = useStore(allocationStore, (s) => s.allocation);

  useEffect(() => {
    void loadAllocation();
  }, []);

  const uploadTo = (field: 'logo' | 'service') => (file: File, onProgress: (p: number) => void) =>
    uploadAllocationImage(field, file, onProgress);

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card title="图片设置">
        <div className="image-slots">
          <ImageUploader label="站点 Logo" src={allocation?.logo} buttonText="上传 Logo" onUpload={uploadTo('logo')} />
          <ImageUploader
            label="客服图片"
            src={allocation?.service}
            buttonText="上传客服图片"
            onUpload={uploadTo('service')}
          />
        </div>
      </Card>
      <Card title="站点信息" loading={!allocation}>
        {allocation ? (
          <div className="setting-grid">
            <SettingForm
              field="title"
              label="站点标题"
              value={allocation.title}
              buttonText="保存站点标题"
              placeholder="例如：滚动截屏"
              rule={rules.siteTitle}
            />
            <SettingForm
              field="qq"
              label="客服 QQ"
              value={allocation.qq}
              buttonText="保存客服 QQ"
              placeholder="5 到 12 位数字，留空表示不显示"
              rule={rules.qq}
            />
            <SettingForm
              field="slogen"
              label="标语"
              value={allocation.slogen}
              buttonText="保存标语"
              placeholder="一句话介绍你的产品"
              rule={rules.slogen}
            />
            <SettingForm
              field="about"
              label="关于我们"
              value={allocation.about}
              buttonText="保存关于我们"
              placeholder="显示在首页“关于我们”中的介绍文字"
              multiline
              rule={rules.about}
            />
          </div>
        ) : null}
      </Card>
    </Space>
  );
}
