import { DEFAULT_APP } from '@appdesk/contract/constants';
import type { ApiInput } from '@appdesk/contract/types';
import { AutoComplete, Form, Input, InputNumber, Switch, Tabs } from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { AppSelect, useNewRecordApp } from '../../../components/admin/appField';
import { EditorDrawer } from '../../../components/admin/EditorDrawer';
import { formRules, inputLimits, rules } from '../../../components/rules';
import { useIsMobile } from '../../../components/useIsMobile';

interface Values {
  app: ApiInput<'/api/help/make'>['app'];
  title: string;
  category: string;
  sort: number;
  published: boolean;
  content: string;
}

const blank: Values = { app: DEFAULT_APP, title: '', category: '', sort: 0, published: false, content: '' };

/** `value`, once it has stopped changing for `ms`: the preview renders what was typed, not every key. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** The server's sanitised HTML of the Markdown being written: exactly what the apps will show. */
function Preview({ content }: { content: string }) {
  const preview = useApiQuery('/api/help/preview', { content: useSettled(content, 300) }, { keepPrevious: true });
  if (!content.trim()) return <p className="list-muted">在左侧输入正文，这里实时显示 App 中看到的效果。</p>;
  // Rendered and sanitised by the server (no script, event handlers or javascript: links).
  // biome-ignore lint/security/noDangerouslySetInnerHtml: server-sanitised HTML, the same the apps get
  return <div className="help-article" dangerouslySetInnerHTML={{ __html: preview.data?.html ?? '' }} />;
}

/**
 * 新建文章 / 编辑文章: the article's fields and its Markdown beside a live preview (tabs on a
 * phone). Editing sends only the fields that changed.
 */
export function ArticleEditor({ target, onClose }: { target: number | 'new' | null; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const mobile = useIsMobile();
  const id = typeof target === 'number' ? target : null;
  const detail = useApiQuery('/api/help/fetch/detail', { id: id ?? 1 }, { enabled: id !== null });
  const app = Form.useWatch('app', form);
  // The categories the chosen app's articles already use.
  const categories = useApiQuery('/api/help/fetch/categories', app ? { app } : {}, { enabled: target !== null });
  const make = useApiAction('/api/help/make');
  const update = useApiAction('/api/help/update');
  const content = Form.useWatch('content', form) ?? '';
  const article = id !== null ? detail.data?.article : undefined;
  // A new article is written for the app the console works in (the header's switcher).
  const currentApp = useNewRecordApp();

  useEffect(() => {
    if (target === null) return;
    form.setFieldsValue(article ? { ...article, app: article.app as Values['app'] } : { ...blank, app: currentApp });
  }, [target, article, form, currentApp]);

  const save = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return; // the form shows what is wrong
    if (id === null) {
      make.mutate(values, { onSuccess: onClose });
      return;
    }
    if (!article) return;
    const changes: Partial<Values> = {};
    for (const key of ['app', 'title', 'category', 'sort', 'content'] as const) {
      if (values[key] !== article[key]) Object.assign(changes, { [key]: values[key] });
    }
    if (Object.keys(changes).length === 0) return onClose();
    update.mutate({ id, ...changes }, { onSuccess: onClose });
  };

  const editor = (
    <Form.Item name="content" rules={formRules(rules.markdown)} className="help-editor-field">
      <Input.TextArea
        aria-label="正文（Markdown）"
        placeholder={'用 Markdown 编写，例如：\n## 如何导出\n1. 打开 App\n2. 点击 **导出**'}
        className="help-editor"
        {...inputLimits(rules.markdown)}
      />
    </Form.Item>
  );
  const preview: ReactNode = <Preview content={content} />;

  return (
    <EditorDrawer
      title={id === null ? '新建文章' : '编辑文章'}
      open={target !== null}
      onClose={onClose}
      onSave={() => void save()}
      saving={make.isPending || update.isPending}
      loading={id !== null && !article}
      width={1120}
    >
      <Form
        form={form}
        name="helpArticle"
        layout="vertical"
        autoComplete="off"
        initialValues={blank}
        className="help-form"
      >
        <div className="help-form-fields">
          <Form.Item label="标题" name="title" rules={formRules(rules.title)} className="help-form-title">
            <Input placeholder="例如：如何导出长截图" showCount {...inputLimits(rules.title)} />
          </Form.Item>
          <Form.Item label="应用" name="app">
            <AppSelect />
          </Form.Item>
          <Form.Item label="分类" name="category" rules={formRules(rules.category)}>
            <AutoComplete
              options={(categories.data?.list ?? []).map((c) => ({ value: c }))}
              placeholder="例如：常见问题"
              {...inputLimits(rules.category)}
            />
          </Form.Item>
          <Form.Item label="排序" name="sort" rules={formRules(rules.sort)} extra="数字小的在前">
            <InputNumber<number>
              precision={0}
              controls={false}
              style={{ width: '100%' }}
              {...inputLimits(rules.sort)}
            />
          </Form.Item>
          {id === null ? (
            <Form.Item label="立即发布" name="published" valuePropName="checked">
              <Switch checkedChildren="发布" unCheckedChildren="草稿" />
            </Form.Item>
          ) : null}
        </div>
        {mobile ? (
          <Tabs
            items={[
              { key: 'edit', label: '编辑', children: editor },
              { key: 'preview', label: '预览', children: preview },
            ]}
          />
        ) : (
          <div className="help-split">
            <div>
              <div className="help-split-title">正文（Markdown）</div>
              {editor}
            </div>
            <div>
              <div className="help-split-title">预览（与 App 中看到的一致）</div>
              <div className="help-preview">{preview}</div>
            </div>
          </div>
        )}
      </Form>
    </EditorDrawer>
  );
}
