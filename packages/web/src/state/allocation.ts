import { Code } from '@appdesk/contract/codes';
import type { Allocation, ApiInput, ApiPath, ApiResponse } from '@appdesk/contract/types';
import { notify } from '../api/notify';
import { call, upload } from '../api/request';
import { send } from '../components/writes';
import { navigate, under } from '../nav';
import { createStore } from './store';

export interface AllocationState {
  /** Site configuration; undefined until loaded (docs/spec-notes.md#3-stored-state-apps-and-channels). */
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

/** docs/spec-notes.md#4-client-state: a site that is not initialised sends everyone to /allocation. */
export function redirectIfNotInitialised(allocation: Allocation | undefined): boolean {
  if (!allocation || allocation.isInit) return false;
  if (under(window.location.pathname, '/allocation')) return false;
  navigate('/allocation', { replace: true });
  return true;
}

/** docs/spec-notes.md#8-answers-notices-and-the-session: an allocation update that succeeded shows the server message as title and description. */
async function saved(serverMessage: string | undefined): Promise<true> {
  const message = serverMessage || '保存成功';
  void notify('success', { title: message, description: message });
  await loadAllocation(true);
  return true;
}

/**
 * Text setting updates, one call after another in the given order, each with its own success
 * notice and reload on 200 (docs/spec-notes.md#4-client-state, docs/spec-notes.md#8-answers-notices-and-the-session); a refused one stops the rest. Resolves whether
 * all succeeded; a failure has already been shown by the request client.
 */
export async function updateAllocation(calls: readonly { path: ApiPath; input: unknown }[]): Promise<boolean> {
  for (const { path, input } of calls) {
    const sent = await send(path, input as ApiInput<typeof path>);
    if (!sent) return false;
    await saved(sent.message);
  }
  return true;
}

/**
 * Logo or service image upload with progress; success notice and reload on 200. Resolves whether
 * it succeeded; rejects only when the upload did not finish (network, timeout, cancelled).
 */
export async function uploadAllocationImage(
  field: 'logo' | 'service',
  file: Blob,
  onProgress?: (percent: number) => void,
): Promise<boolean> {
  const res = await upload<ApiResponse<'/api/allocation/update/logo'>>(`/api/allocation/update/${field}`, {
    files: { [field]: file },
    onProgress,
  });
  return res.code === Code.OK ? saved(res.message) : false;
}

/**
 * First-run setup; on success status becomes true and the allocation is reloaded. Resolves
 * whether it succeeded; a failure has already been shown by the request client.
 */
export async function initAllocation(data: ApiInput<'/api/allocation/init'>): Promise<boolean> {
  if (!(await send('/api/allocation/init', data))) return false;
  allocationStore.set({ status: true });
  await loadAllocation(true);
  return true;
}
