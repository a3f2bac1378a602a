import './front.css';
import { useEffect } from 'react';
import { HomePage } from '../pages/home';
import { allocationStore, loadAllocation, redirectIfNotInitialised } from '../state/allocation';
import { useStore } from '../state/store';

/** Public front layout: plain React and CSS only (no antd, no router, no react-query). */
export default function FrontLayout() {
  const allocation = useStore(allocationStore, (s) => s.allocation);
  const loading = useStore(allocationStore, (s) => s.loading);

  useEffect(() => {
    void loadAllocation().then(redirectIfNotInitialised);
  }, []);

  useEffect(() => {
    if (allocation?.title) document.title = allocation.title;
  }, [allocation?.title]);

  return <HomePage allocation={allocation} loading={loading} onRetry={() => void loadAllocation(true)} />;
}
