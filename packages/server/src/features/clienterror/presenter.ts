import type { ClientErrorKind } from '@appdesk/contract/constants';
import { maskPhone } from '@appdesk/contract/format';
import { describeDevice } from '../../core/device';
import { iso, isoOrNull } from '../../db/paging';
import type { GroupRow, samplesOf } from './queries';

const kindOf = (kind: string): ClientErrorKind => (kind === 'rejection' ? 'rejection' : 'error');

export function presentGroup(r: GroupRow) {
  const resolvedAt = r.resolved_at === null ? null : Number(r.resolved_at);
  return {
    id: r.id,
    message: r.message,
    release: r.release,
    frame: r.frame,
    kind: kindOf(r.kind),
    count: Number(r.count),
    firstSeenAt: iso(Number(r.first_seen_at)),
    lastSeenAt: iso(Number(r.last_seen_at)),
    lastPath: r.last_path,
    status: resolvedAt === null ? ('open' as const) : ('resolved' as const),
    resolvedAt: isoOrNull(resolvedAt),
    resolvedBy:
      r.resolved_by === null ? null : r.resolver_nickname || (r.resolver_phone ? maskPhone(r.resolver_phone) : null),
  };
}

export function presentSample(r: Awaited<ReturnType<typeof samplesOf>>[number]) {
  return {
    id: r.id,
    kind: kindOf(r.kind),
    stack: r.stack,
    path: r.path,
    userAgent: r.user_agent,
    device: describeDevice(r.user_agent) ?? '未知设备',
    repeats: Number(r.repeats),
    createdAt: iso(Number(r.created_at)),
  };
}
