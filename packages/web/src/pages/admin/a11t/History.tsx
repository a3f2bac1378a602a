import { configTypes } from '@appdesk/contract/constants';
import { formatDateTime } from '@appdesk/contract/format';
import { labelOf } from '@appdesk/contract/rules';
import type { ApiOutput } from '@appdesk/contract/types';
import { Drawer, Empty, Tag, Timeline, Typography } from 'antd';
import { useApiAction, useApiQuery } from '../../../api/hooks';
import { ConfirmLink } from '../../../components/list';
import { useIsMobile } from '../../../components/useIsMobile';
import { untilSettled } from '../../../components/writes';
import { displayValue, lineDiff } from './diff';

type Revision = ApiOutput<'/api/a11t/fetch/revisions'>['list'][number];

const actionLabel: Record<string, { label: string; color: string }> = {
  make: { label: '新建', color: 'green' },
  update: { label: '修改', color: 'blue' },
  rollback: { label: '回滚', color: 'orange' },
  remove: { label: '删除', color: 'red' },
};

function Diff({ before, after, label }: { before: string; after: string; label: string }) {
  if (before === after) return null;
  return (
    <fieldset className="a11t-diff" aria-label={`${label}的变化`}>
      <div className="a11t-diff-title">{label}</div>
      <pre>
        {lineDiff(before, after).map((line, i) => (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: lines of one fixed diff
            key={i}
            className={`a11t-diff-${line.kind}`}
          >
            {line.kind === 'removed' ? '- ' : line.kind === 'added' ? '+ ' : '  '}
            {line.text}
          </div>
        ))}
      </pre>
    </fieldset>
  );
}

function RevisionCard({ revision, entryId, latest }: { revision: Revision; entryId: number; latest: number }) {
  const rollback = useApiAction('/api/a11t/rollback', {
    success: `已回滚到修订 ${revision.revision}（保存为新的修订）`,
  });
  const before = revision.previous;
  const action = actionLabel[revision.action] ?? { label: revision.action, color: 'default' };
  const overrides = (o: Revision['overrides']) => (o.length ? JSON.stringify(o, null, 2) : '（无）');
  return (
    <div className="a11t-revision">
      <div className="a11t-revision-head">
        <Typography.Text strong>修订 {revision.revision}</Typography.Text>
        <Tag color={action.color}>
          {action.label}
          {revision.rolledBackTo ? `到修订 ${revision.rolledBackTo}` : ''}
        </Tag>
        <Typography.Text type="secondary">
          {revision.actor} · {formatDateTime(revision.createdAt)}
        </Typography.Text>
        {revision.revision < latest && revision.action !== 'remove' ? (
          <ConfirmLink
            title={`回滚到修订 ${revision.revision}`}
            description="键值恢复为这个修订的类型、值、条件值和说明；回滚本身保存为一个新修订。"
            okText="回滚"
            path="/api/a11t/rollback"
            onConfirm={() => untilSettled(rollback.mutate, { id: entryId, revision: revision.revision })}
          >
            回滚到此修订
          </ConfirmLink>
        ) : null}
      </div>
      {before ? (
        <>
          {before.type !== revision.type ? (
            <Diff before={labelOf(configTypes, before.type)} after={labelOf(configTypes, revision.type)} label="类型" />
          ) : null}
          <Diff
            before={displayValue(before.type, before.value)}
            after={displayValue(revision.type, revision.value)}
            label="值"
          />
          <Diff before={overrides(before.overrides)} after={overrides(revision.overrides)} label="条件值" />
          <Diff before={before.description} after={revision.description} label="说明" />
        </>
      ) : (
        <pre className="a11t-value">{displayValue(revision.type, revision.value)}</pre>
      )}
    </div>
  );
}

/** 修改历史: every revision of a key, newest first, as a diff against the one before, each one click from a rollback. */
export function HistoryDrawer({ entry, onClose }: { entry: { id: number; key: string } | null; onClose: () => void }) {
  const mobile = useIsMobile();
  const revisions = useApiQuery('/api/a11t/fetch/revisions', { id: entry?.id ?? 1 }, { enabled: entry !== null });
  const list = revisions.data?.list ?? [];
  const latest = list[0]?.revision ?? 0;
  return (
    <Drawer
      title={`修改历史：${entry?.key ?? ''}`}
      open={entry !== null}
      onClose={onClose}
      size={mobile ? '100%' : 640}
      destroyOnHidden
      loading={revisions.isLoading}
    >
      {list.length === 0 ? (
        <Empty description="没有修订记录" />
      ) : (
        <Timeline
          items={list.map((r) => ({
            key: r.id,
            color: actionLabel[r.action]?.color ?? 'gray',
            content: <RevisionCard revision={r} entryId={entry?.id ?? 0} latest={latest} />,
          }))}
        />
      )}
    </Drawer>
  );
}
