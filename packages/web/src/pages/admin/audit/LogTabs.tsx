import { Tabs } from 'antd';
import { useSearchParams } from 'react-router';

export type LogView = 'audit' | 'login';

/** Which log the 操作日志 page shows: `?view=login` is the 登录日志. */
export function useLogView(): LogView {
  const [params] = useSearchParams();
  return params.get('view') === 'login' ? 'login' : 'audit';
}

/** 操作日志 | 登录日志: switching starts the other list with no filters (they differ). */
export function LogTabs({ active }: { active: LogView }) {
  const [, setParams] = useSearchParams();
  return (
    <Tabs
      className="audit-tabs"
      activeKey={active}
      items={[
        { key: 'audit', label: '操作日志' },
        { key: 'login', label: '登录日志' },
      ]}
      onChange={(key) => setParams(key === 'login' ? { view: 'login' } : {}, { replace: true })}
    />
  );
}
