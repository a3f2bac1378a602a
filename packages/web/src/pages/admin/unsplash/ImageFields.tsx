import { AutoComplete, Form, Input, InputNumber, Select, Switch } from 'antd';
import { formRules, inputLimits, rules } from '../../../components/rules';

/** The library's categories and tags in use, offered while typing. */
export interface Vocabulary {
  categories: string[];
  tags: string[];
}

/** Category, tags, author, source, sort and enabled: the upload batch's defaults and the editor's fields. */
export function ImageFields({ vocabulary, compact }: { vocabulary: Vocabulary; compact?: boolean }) {
  return (
    <>
      <Form.Item name="category" label="分类" rules={formRules(rules.category)}>
        <AutoComplete
          options={vocabulary.categories.filter(Boolean).map((c) => ({ value: c }))}
          placeholder="例如 壁纸、贴纸、背景，留空为未分类"
          {...inputLimits(rules.category)}
          allowClear
        />
      </Form.Item>
      <Form.Item
        name="tags"
        label="标签"
        rules={[
          { type: 'array', max: 10, message: '标签最多 10 个' },
          {
            validator: async (_, tags: string[] | undefined) => {
              for (const tag of tags ?? []) {
                if (tag.length > rules.tag.max) throw new Error(`标签最多 ${rules.tag.max} 个字符`);
                if (rules.tag.pattern && !rules.tag.pattern.test(tag)) throw new Error('标签不能包含逗号');
              }
            },
          },
        ]}
      >
        <Select
          mode="tags"
          tokenSeparators={[',', '，']}
          options={vocabulary.tags.map((t) => ({ value: t, label: t }))}
          placeholder="输入后回车，可多个"
        />
      </Form.Item>
      <Form.Item name="author" label="作者" rules={formRules(rules.author)}>
        <Input placeholder="图片作者或来源网站，可留空" {...inputLimits(rules.author)} />
      </Form.Item>
      <Form.Item name="sourceUrl" label="来源链接" rules={formRules(rules.sourceUrl)}>
        <Input placeholder="https://…，可留空" {...inputLimits(rules.sourceUrl)} />
      </Form.Item>
      {compact ? null : (
        <Form.Item name="sort" label="排序" rules={formRules(rules.sort)} extra="数字越小越靠前（App 按排序值取图时）">
          <InputNumber {...inputLimits(rules.sort)} precision={0} />
        </Form.Item>
      )}
      <Form.Item name="enabled" label="启用" valuePropName="checked" extra="停用的图片 App 中不显示">
        <Switch checkedChildren="启用" unCheckedChildren="停用" />
      </Form.Item>
    </>
  );
}
