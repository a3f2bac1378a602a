import { channels } from '@appdesk/contract/constants';
import { datePresets } from '@appdesk/contract/format';
import { DatePicker, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo } from 'react';
import type { ListValues } from '../../../components/list';
import { leaveOnTab } from '../../../components/list/ListView';
import { useApps } from '../../../state/apps';

function rangeOf(from: string | undefined, to: string | undefined): [Dayjs, Dayjs] | null {
  const a = from ? dayjs(from) : null;
  const b = to ? dayjs(to) : null;
  return a?.isValid() && b?.isValid() ? [a, b] : null;
}

/**
 * 用户分群 beside the list form (which holds search, 活跃 presets, 会员 and 注册时间): channel, app
 * and a last-active date range. Each choice applies at once and lives in the URL.
 */
export function SegmentFilters({
  values,
  update,
}: {
  values: ListValues;
  update: (patch: Record<string, string | undefined>) => void;
}) {
  const apps = useApps();
  const presets = useMemo(
    () => Object.entries(datePresets()).map(([label, value]) => ({ label, value: value as [Dayjs, Dayjs] })),
    [],
  );
  const range = (keys: readonly [string, string], label: string) => (
    <div className="user-segment">
      <span aria-hidden>{label}</span>
      <DatePicker.RangePicker
        aria-label={label}
        value={rangeOf(values[keys[0]], values[keys[1]])}
        presets={presets}
        allowEmpty={[false, false]}
        onChange={(picked) =>
          update({
            [keys[0]]: picked?.[0] ? picked[0].startOf('day').toISOString() : undefined,
            [keys[1]]: picked?.[1] ? picked[1].endOf('day').toISOString() : undefined,
          })
        }
      />
    </div>
  );
  const select = (name: 'channel' | 'app' | 'vip', label: string, options: { value: string; label: string }[]) => (
    <div className="user-segment">
      <span aria-hidden>{label}</span>
      <Select
        aria-label={label}
        value={values[name] ?? ''}
        options={[{ value: '', label: '全部' }, ...options]}
        popupMatchSelectWidth={false}
        showSearch={name === 'channel' ? { optionFilterProp: 'label' } : undefined}
        onChange={(value: string) => update({ [name]: value || undefined })}
      />
    </div>
  );
  return (
    <div className="user-segments" onKeyDownCapture={leaveOnTab}>
      {select(
        'channel',
        '渠道',
        channels.map(({ value, label }) => ({ value, label })),
      )}
      {select('app', '应用', apps.options)}
      {range(['activeFrom', 'activeTo'], '最近活跃')}
    </div>
  );
}
