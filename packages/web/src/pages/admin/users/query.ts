import { APP_CODE_PATTERN, channels, userListStatuses, userVipSegments } from '@appdesk/contract/constants';
import dayjs from 'dayjs';
import { type ListOptions, type ListValues, sortParams } from '../../../components/list/listState';

/*
 * The users list's URL query and the request it makes: no React and no antd, so the entry can ask
 * for the first page while the page's code loads (layouts/adminBoot.ts).
 */

type LabelMap<L extends readonly { value: string; label: string }[]> = Record<L[number]['value'], string>;
const labelMap = <L extends readonly { value: string; label: string }[]>(list: L) =>
  Object.fromEntries(list.map((o) => [o.value, o.label])) as LabelMap<L>;

/** The users list's status filters (the contract's, which the operation log names an export's filter by). */
export const statusLabels = labelMap(userListStatuses);

/** The VIP segment's choices. */
export const vipLabels = labelMap(userVipSegments);
type VipState = keyof typeof vipLabels;

/** The URL query keys of the segments, beside the list's status and search. */
export const segmentKeys = ['channel', 'app', 'from', 'to', 'activeFrom', 'activeTo', 'vip'] as const;

/** The segment part of the users filter, from the URL values (unknown values are left out). */
export function segmentFilter(values: ListValues) {
  const time = (v: string | undefined) => (v && dayjs(v).isValid() ? v : undefined);
  return {
    channel: channels.find((c) => c.value === values.channel)?.value,
    // Apps are data: any code of the right shape (the server refuses one no app has).
    app: values.app && APP_CODE_PATTERN.test(values.app) ? values.app : undefined,
    from: time(values.from),
    to: time(values.to),
    activeFrom: time(values.activeFrom),
    activeTo: time(values.activeTo),
    vip: values.vip && values.vip in vipLabels ? (values.vip as VipState) : undefined,
  };
}

export type Status = keyof typeof statusLabels;
export const statuses = Object.keys(statusLabels) as Status[];
const sortKeys = ['createdAt', 'lastActiveAt', 'coins'] as const;

const keys = ['status', 'search', 'active', ...segmentKeys] as const;
/** 活跃: since midnight in Shanghai today, or 7 / 30 days back. */
const activeSince = { today: 0, '7d': 6, '30d': 29 } as const;
const DAY = 24 * 60 * 60 * 1000;
const SHANGHAI = 8 * 60 * 60 * 1000;
function activeFrom(value: string | undefined): string | undefined {
  if (!value || !(value in activeSince)) return undefined;
  const back = activeSince[value as keyof typeof activeSince];
  return new Date((Math.floor((Date.now() + SHANGHAI) / DAY) - back) * DAY - SHANGHAI).toISOString();
}
const defaultSort = { sort: 'createdAt', order: 'descend' } as const;

function toFilter(values: ListValues, sort: { sort?: string; order?: 'ascend' | 'descend' }) {
  const status = statuses.includes(values.status as Status) ? (values.status as Status) : 'all';
  return {
    status,
    search: values.search ?? '',
    ...segmentFilter(values),
    ...(values.active ? { activeFrom: activeFrom(values.active) } : {}),
    ...sortParams(sort, sortKeys),
  };
}

/** The users list: its endpoint, URL filter keys, filter and default sort. */
export const usersList: ListOptions<'/api/users/fetch/page'> = {
  fetchPath: '/api/users/fetch/page',
  keys,
  toFilter,
  defaultSort,
};

/** The endpoints of the users list's 批量操作 (BatchBar.tsx): its row checkboxes show when one is allowed. */
export const userBatchPaths = [
  '/api/users/block/batch',
  '/api/users/unblock/batch',
  '/api/users/message/batch',
  '/api/users/export',
] as const;
