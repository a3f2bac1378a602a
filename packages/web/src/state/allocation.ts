import { Code } from '@appdesk/contract/codes';
import type { Allocation, ApiInput, ApiResponse } from '@appdesk/contract/types';
import { notify } from '../api/notify';
import { call, upload } from '../api/request';
import { navigate, under } from '../nav';
import { createStore } from './store';

export interface AllocationState {
  /** Site configuration; undefined until loaded (spec section 3). */
  allocation: Allocation | undefined;
  /** Becomes true after the first-run setup succeeds. */
  status: boolean;
  loading: boolean;
}

export const allocationStore = createStore<AllocationState>({ allocation: undefined, status: false, loading: false });

let inflight: Promise<Allocation | undefined> | null = null;

/** Loads the allocation once (only if not yet in state) unless forced. */
export function loadAllocation(force = false): Promise<Allocation | undefined> {
  const current = allocationStore.get().allocation;
  if (!force && current) return Promise.resolve(current);
  if (!force && inflight) return inflight;
  allocationStore.set({ loading: true });
  const pending = call('/api/allocation/fetch', {}, { silent: !force && !!current })
    .then((res) => {
      const allocation = res.code === Code.OK ? res.data?.allocation : undefined;
      if (allocation) allocationStore.set({ allocation });
      return allocation ?? allocationStore.get().allocation;
    })
    .catch(() => allocationStore.get().allocation)
    .finally(() => {
      if (inflight === pending) inflight = null;
      allocationStore.set({ loading: false });
    });
  inflight = pending;
  return pending;
}

/** Spec section 4: a site that is not initialised sends everyone to /allocation. */
export function redirectIfNotInitialised(allocation: Allocation | undefined): boolean {
  if (!allocation || allocation.isInit) return false;
  if (under(window.location.pathname, '/allocation')) return false;
  navigate('/allocation', { replace: true });
  return true;
}

type UpdatePath =
  | '/api/allocation/update/title'
  | '/api/allocation/update/qq/account'
  | '/api/allocation/update/slogen'
  | '/api/allocation/update/about';

async function afterUpdate<T extends { code: number; message?: string }>(res: T): Promise<T> {
  if (res.code === Code.OK) {
    const message = res.message || '保存成功';
    void notify('success', { title: message, description: message });
    await loadAllocation(true);
  }
  return res;
}

/** A text setting update: success notice and reload on 200; nothing more otherwise. */
export async function updateAllocation<P extends UpdatePath>(path: P, data: ApiInput<P>): Promise<ApiResponse<P>> {
  return afterUpdate(await call(path, data));
}

/** Logo or service image upload with progress; success notice and reload on 200. */
export async function uploadAllocationImage(
  field: 'logo' | 'service',
  file: Blob,
  onProgress?: (percent: number) => void,
): Promise<ApiResponse<'/api/allocation/update/logo'>> {
  const res = await upload<ApiResponse<'/api/allocation/update/logo'>>(`/api/allocation/update/${field}`, {
    files: { [field]: file },
    onProgress,
  });
  return afterUpdate(res);
}

/** First-run setup; on success status becomes true and the allocation is reloaded. */
export async function initAllocation(
  data: ApiInput<'/api/allocation/init'>,
): Promise<ApiResponse<'/api/allocation/init'>> {
  const res = await call('/api/allocation/init', data);
  if (res.code === Code.OK) {
    allocationStore.set({ status: true });
    await loadAllocation(true);
  }
  return res;
}
