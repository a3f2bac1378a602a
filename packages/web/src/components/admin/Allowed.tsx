import type { ApiPath } from '@appdesk/contract/types';
import type { ReactNode } from 'react';
import { useGrants } from '../../state/grants';

/**
 * Its children only for an operator who may call `path` (the endpoint the control calls; its
 * permission is the contract's): `<Allowed path="/api/help/make"><Button>新建文章</Button></Allowed>`.
 * A convenience: the server refuses the call anyway.
 */
export function Allowed({ path, children }: { path: ApiPath; children: ReactNode }) {
  return useGrants().canCall(path) ? children : null;
}
