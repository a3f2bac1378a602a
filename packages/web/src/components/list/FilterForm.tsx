import { DownOutlined, SearchOutlined, UpOutlined } from '@ant-design/icons';
import { datePresets } from '@appdesk/contract/format';
import { Button, DatePicker, Form, Input, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { type CSSProperties, type KeyboardEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type FilterField, type FormValues, foldedFilters, toFormValues, toQueryPatch } from './filterForm';
import type { ListController } from './useList';

/** Desktop width of a control; under 900 px the stylesheet makes every control full width. */
const fieldWidth = (px: number) => ({ '--list-field-width': `${px}px` }) as CSSProperties;

/**
 * Tab and Shift+Tab leave a date-range picker, even while it is empty: antd pulls the focus back to
 * an empty start date (a keyboard trap on every list with a time filter), so step over the whole
 * picker ourselves. Picking the start date still moves on to the end date, as antd does.
 */
export function leaveOnTab(event: KeyboardEvent<HTMLElement>) {
  const picker = (event.target as HTMLElement).closest('.ant-picker');
  if (event.key !== 'Tab' || !picker) return;
  const focusable = [
    ...document.querySelectorAll<HTMLElement>(
      'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]:not([tabindex="-1"])',
    ),
  ].filter((el) => el.offsetParent !== null && !picker.contains(el));
  const after = focusable.find((el) => picker.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
  const before = focusable.findLast((el) => picker.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_PRECEDING);
  const next = event.shiftKey ? before : after;
  if (!next) return;
  event.preventDefault();
  event.stopPropagation();
  next.focus();
}

interface FilterFormProps {
  list: ListController<unknown>;
  fields: FilterField[];
  /** A phone: the form folds to its first field and 展开 shows the rest. */
  mobile: boolean;
}

/** The list's search form, bound to the URL query. */
export function FilterForm({ list, fields, mobile }: FilterFormProps) {
  const [form] = Form.useForm<FormValues>();
  const [expanded, setExpanded] = useState(false);
  const presets = useMemo(
    () => Object.entries(datePresets()).map(([label, value]) => ({ label, value: value as [Dayjs, Dayjs] })),
    [],
  );

  // Keep the form in step with the URL (back/forward, links, reset), only when the URL's values
  // changed: a workspace tab shown again re-runs effects, and must keep what was typed but not sent.
  // Before paint (layout effect): on a busy machine a passive effect could run after the operator
  // had already typed into the freshly shown form, and wipe it.
  // A change the form sent itself is not written back: the URL's render may come after the operator
  // has typed the next search, which it would replace with the one just sent.
  const synced = useRef<string | null>(null);
  const sent = useRef<Record<string, string | undefined> | null>(null);
  useLayoutEffect(() => {
    const now = JSON.stringify(list.values);
    if (synced.current === now) return;
    synced.current = now;
    const own = sent.current;
    sent.current = null;
    if (own && Object.entries(own).every(([key, value]) => list.values[key] === value)) return;
    form.setFieldsValue(toFormValues(fields, list.values));
  }, [form, fields, list.values]);

  const apply = (values: FormValues) => {
    const patch = toQueryPatch(fields, values);
    sent.current = patch;
    list.update(patch);
  };

  if (fields.length === 0) return null;
  // On a phone the fields after the first stay mounted (their values are the form's) but hidden.
  const folded = mobile && !expanded && fields.length > 1;
  const hiddenSet = foldedFilters(fields, list.values);

  return (
    <Form
      form={form}
      layout="inline"
      className={folded ? 'list-form list-form-folded' : 'list-form'}
      onKeyDownCapture={leaveOnTab}
      onFinish={apply}
      initialValues={toFormValues(fields, list.values)}
    >
      {fields.map((field, index) => {
        const hidden = folded && index > 0 ? 'list-form-hidden' : undefined;
        if (field.kind === 'range') {
          return (
            <Form.Item key="range" name="range" label={field.label} className={hidden}>
              <DatePicker.RangePicker
                className="list-field"
                classNames={{ popup: { root: 'list-range-popup' } }}
                style={fieldWidth(260)}
                presets={presets}
                allowEmpty={[false, false]}
                onChange={(value) => apply({ ...form.getFieldsValue(), range: value as [Dayjs, Dayjs] | null })}
              />
            </Form.Item>
          );
        }
        if (field.kind === 'select') {
          return (
            <Form.Item key={field.name} name={field.name} label={field.label} className={hidden}>
              <Select
                options={field.options}
                placeholder={field.placeholder}
                className="list-field"
                style={fieldWidth(field.width ?? 160)}
                popupMatchSelectWidth={false}
                onChange={(value: string) => apply({ ...form.getFieldsValue(), [field.name]: value })}
              />
            </Form.Item>
          );
        }
        return (
          <Form.Item
            key={field.name}
            name={field.name}
            label={field.label}
            className={hidden}
            rules={field.kind === 'id' ? [{ pattern: /^\s*\d{1,10}\s*$/, message: '请输入数字 ID' }] : undefined}
          >
            <Input
              placeholder={field.placeholder}
              allowClear
              inputMode={field.kind === 'id' ? 'numeric' : undefined}
              maxLength={field.kind === 'id' ? 10 : 50}
              className="list-field"
              style={fieldWidth(field.width ?? 200)}
              onChange={(event) => {
                // Clearing with the × applies at once; typing waits for Enter or 查询.
                if (event.type === 'click' && !event.target.value) {
                  apply({ ...form.getFieldsValue(), [field.name]: '' });
                }
              }}
            />
          </Form.Item>
        );
      })}
      <Form.Item className="list-form-buttons">
        <Space wrap>
          <Button
            type="primary"
            htmlType="submit"
            icon={<SearchOutlined aria-hidden />}
            aria-label={folded ? '查询' : undefined}
          >
            {folded ? null : '查询'}
          </Button>
          {folded ? null : (
            <Button onClick={list.reset} disabled={!list.hasFilters}>
              重置
            </Button>
          )}
          {mobile && fields.length > 1 ? (
            <Button
              type="link"
              aria-expanded={!folded}
              icon={folded ? <DownOutlined aria-hidden /> : <UpOutlined aria-hidden />}
              iconPlacement="end"
              onClick={() => setExpanded(folded)}
            >
              {folded ? (hiddenSet ? `展开（${hiddenSet}）` : '展开') : '收起'}
            </Button>
          ) : null}
        </Space>
      </Form.Item>
    </Form>
  );
}
