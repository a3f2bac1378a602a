import { Radio, Space } from 'antd';
import { AppSelect } from './appField';

/**
 * Which apps a role or an operator reaches, as a form field: null for every app (a role: also
 * apps registered later; an operator: whatever their roles reach), else the apps picked by name.
 */
export function AppScopeField({
  value,
  onChange,
  allLabel = '全部应用',
  disabled,
  id,
}: {
  value?: string[] | null;
  onChange?: (value: string[] | null) => void;
  allLabel?: string;
  disabled?: boolean;
  id?: string;
}) {
  const some = value !== null && value !== undefined;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Radio.Group
        id={id}
        value={some ? 'some' : 'all'}
        disabled={disabled}
        onChange={(e) => onChange?.(e.target.value === 'all' ? null : (value ?? []))}
        options={[
          { value: 'all', label: allLabel },
          { value: 'some', label: '指定应用' },
        ]}
      />
      {some ? (
        <AppSelect
          mode="multiple"
          aria-label="可见的应用"
          placeholder="选择可见的应用"
          value={value}
          disabled={disabled}
          onChange={(apps: string[]) => onChange?.(apps)}
          style={{ width: '100%' }}
        />
      ) : null}
    </Space>
  );
}

/** A required-apps check for the field: 指定应用 with none picked is refused before sending. */
export const appScopeRule = {
  validator: (_: unknown, value: string[] | null | undefined) =>
    Array.isArray(value) && value.length === 0 ? Promise.reject(new Error('请至少选择一个应用')) : Promise.resolve(),
};
