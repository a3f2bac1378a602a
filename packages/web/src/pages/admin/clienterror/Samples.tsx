import { clientErrorKinds } from '@appdesk/contract/constants';
import { Empty, Spin } from 'antd';
import { useApiQuery } from '../../../api/hooks';
import { TimeCell } from '../../../components/list';

export const kindLabel = (kind: string) => clientErrorKinds.find((k) => k.value === kind)?.label ?? '未知类型';

/** The latest reports of one group, each with its stack, page and browser. */
export function Samples({ groupId }: { groupId: number }) {
  const detail = useApiQuery('/api/clienterror/fetch/detail', { id: groupId });
  const samples = detail.data?.samples ?? [];
  if (detail.isPending) return <Spin size="small" />;
  if (samples.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有保留的上报" />;
  return (
    <div className="clienterror-samples">
      <span className="clienterror-small">最近 {samples.length} 次上报（每组保留最新 5 次）</span>
      {samples.map((s) => (
        <section key={s.id} className="clienterror-sample" aria-label={`上报 ${s.id}`}>
          <div className="clienterror-small">
            <TimeCell value={s.createdAt} /> · {kindLabel(s.kind)} · {s.path} · {s.device}
            {s.repeats > 1 ? ` · 连续 ${s.repeats} 次` : ''}
          </div>
          <pre className="clienterror-stack">{s.stack || '（没有调用栈）'}</pre>
        </section>
      ))}
    </div>
  );
}
