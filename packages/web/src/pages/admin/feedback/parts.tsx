import { channels } from '@appdesk/contract/constants';
import type { ApiOutput } from '@appdesk/contract/types';
import { Tag } from 'antd';

export type FeedbackRow = ApiOutput<'/api/feedback/fetch/page'>['list'][number];

export const statusTag = (status: FeedbackRow['status']) =>
  status === 'pending' ? <Tag color="orange">待处理</Tag> : <Tag color="green">已处理</Tag>;

/** Where the feedback came from: app (by `nameOf`, useApps), version, channel, device and system, as one line. */
export function deviceLine(f: FeedbackRow, nameOf: (app: string) => string): string {
  const channel = channels.find((c) => c.value === f.channel)?.label ?? f.channel;
  return [nameOf(f.app), f.version && `v${f.version}`, channel, f.deviceModel, f.osVersion].filter(Boolean).join(' · ');
}
