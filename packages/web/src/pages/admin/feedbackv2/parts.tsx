import { threadCategories, threadStatuses } from '@appdesk/contract/constants';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Tag } from 'antd';

export type ThreadRow = ApiOutput<'/api/feedbackv2/fetch/page'>['list'][number];

const statusColor: Record<ThreadRow['status'], string> = { open: 'orange', replied: 'blue', closed: 'default' };

export const ThreadStatusTag = ({ status }: { status: ThreadRow['status'] }) => (
  <Tag color={statusColor[status]}>{labelOf(threadStatuses, status)}</Tag>
);

export const CategoryTag = ({ category }: { category: ThreadRow['category'] }) => (
  <Tag>{labelOf(threadCategories, category)}</Tag>
);
