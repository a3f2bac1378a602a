import type { TextRule } from '@appdesk/contract/rules';
import { Button, Card, Form, Input, Space } from 'antd';
import { useEffect, useState } from 'react';
import { useApiQuery } from '../../../api/hooks';
import { ImageUploader } from '../../../components/admin/ImageUploader';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { allocationStore, loadAllocation, updateAllocation, uploadAllocationImage } from '../../../state/allocation';
import { useStore } from '../../../state/store';
import './allocation.css';
import { lacking, useGrants } from '../../../state/grants';
import { type SettingKey, type Settings, settingCalls } from './settingCalls';

interface SettingItem {
  name: SettingKey;
  label: string;
  rule: TextRule;
  placeholder: string;
  extra?: string;
  /** Rows of a multi-line box; none: one line. */
  rows?: number;
}

/** The form's sections, in order. */
const sections: { title: string; items: SettingItem[] }[] = [
  {
    title: '站点信息',
    items: [
      { name: 'title', label: '站点标题', rule: rules.siteTitle, placeholder: '例如：滚动截屏' },
      { name: 'slogen', label: '标语', rule: rules.slogen, placeholder: '一句话介绍你的产品' },
      { name: 'qq', label: '客服 QQ', rule: rules.qq, placeholder: '5 到 12 位数字，留空表示不显示' },
      {
        name: 'about',
        label: '关于我们',
        rule: rules.about,
        placeholder: '显示在首页“关于我们”中的介绍文字',
        rows: 4,
      },
    ],
  },
  {
    title: '下载与备案',
    items: [
      {
        name: 'androidUrl',
        label: 'Android 下载地址',
        rule: rules.downloadUrl,
        placeholder: 'https://…/app.apk 或应用商店页面',
        extra: '首页显示下载按钮和二维码',
      },
      { name: 'iosUrl', label: 'App Store 地址', rule: rules.downloadUrl, placeholder: 'https://apps.apple.com/…' },
      {
        name: 'icp',
        label: 'ICP 备案号',
        rule: rules.icp,
        placeholder: '例如：京ICP备12345678号-1',
        extra: '显示在首页底部，链接到工信部备案查询',
      },
      { name: 'police', label: '公安备案号', rule: rules.police, placeholder: '例如：京公网安备11010802012345号' },
    ],
  },
  {
    title: '协议（Markdown）',
    items: [
      {
        name: 'agreement',
        label: '用户协议',
        rule: rules.legalText,
        placeholder: '保存后在官网的用户协议页面展示（见下方“查看用户协议页面”），应用商店和 App 可以直接链接',
        rows: 8,
      },
      {
        name: 'privacy',
        label: '隐私政策',
        rule: rules.legalText,
        placeholder: '保存后在官网的隐私政策页面展示（见下方“查看隐私政策页面”）',
        rows: 8,
      },
    ],
  },
];

/**
 * Every text setting in one form with one save, which sends each changed setting through its call
 * (settingCalls); leaving with unsaved changes asks first.
 */
function SettingsForm() {
  const [form] = Form.useForm<Settings>();
  const loaded = useApiQuery('/api/allocation/fetch/settings', {});
  // Without 站点配置 · 修改站点配置 the settings are shown, not editable.
  const writable = useGrants().canCall('/api/allocation/update');
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);

  // The saved settings fill the form, except over changes not yet saved (a refused save keeps them).
  useEffect(() => {
    if (loaded.data && !dirty) form.setFieldsValue(loaded.data.settings);
  }, [form, loaded.data, dirty]);

  // The browser's own "leave this page?" question on reload or close while changes are unsaved.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const save = async (values: Settings) => {
    const calls = settingCalls(loaded.data?.settings, values);
    if (calls.length === 0) {
      setDirty(false);
      return;
    }
    setSaving(true);
    try {
      const all = await updateAllocation(calls);
      // Also after a refused call: what was saved before it is no longer a change to send again.
      // The form keeps what the operator typed while anything is left unsaved (see the fill above).
      await loaded.refetch();
      if (all) setDirty(false);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title="站点配置" loading={!loaded.data}>
      <Form<Settings>
        form={form}
        layout="vertical"
        onFinish={(values) => void save(values)}
        onValuesChange={() => setDirty(true)}
        className="setting-form"
        disabled={!writable}
      >
        {sections.map((section) => (
          <fieldset key={section.title} className="setting-section">
            <legend>{section.title}</legend>
            <div className="setting-grid">
              {section.items.map((item) => (
                <Form.Item
                  key={item.name}
                  label={item.label}
                  name={item.name}
                  extra={item.extra}
                  rules={formRules(item.rule)}
                  className={item.rows ? 'setting-wide' : undefined}
                >
                  {item.rows ? (
                    <Input.TextArea
                      placeholder={item.placeholder}
                      autoSize={{ minRows: item.rows, maxRows: 20 }}
                      {...inputLimits(item.rule)}
                      showCount
                    />
                  ) : (
                    <Input placeholder={item.placeholder} {...inputLimits(item.rule)} />
                  )}
                </Form.Item>
              ))}
            </div>
          </fieldset>
        ))}
        <div className="setting-save">
          {writable ? (
            <Button type="primary" htmlType="submit" loading={saving}>
              保存站点配置
            </Button>
          ) : (
            <span className="setting-dirty">只能查看：修改{lacking('/api/allocation/update')}</span>
          )}
          {dirty ? <span className="setting-dirty">有未保存的修改</span> : null}
          <a href="/legal/agreement" target="_blank" rel="noreferrer">
            查看用户协议页面
          </a>
          <a href="/legal/privacy" target="_blank" rel="noreferrer">
            查看隐私政策页面
          </a>
        </div>
      </Form>
    </Card>
  );
}

/** /admin/admin/allocation (站点配置): images with progress, then every text setting in one form. */
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
          <ImageUploader
            label="站点 Logo"
            src={allocation?.logo}
            buttonText="上传 Logo"
            onUpload={uploadTo('logo')}
            path="/api/allocation/update/logo"
          />
          <ImageUploader
            label="客服图片"
            src={allocation?.service}
            buttonText="上传客服图片"
            onUpload={uploadTo('service')}
            path="/api/allocation/update/service"
          />
        </div>
      </Card>
      <SettingsForm />
    </Space>
  );
}
