import type { EndpointDef } from '@appdesk/contract';
import { type OperatorGrants, reachesApp } from '../core/grants';
import type { Services } from './context';
import { fail } from './errors';

/**
 * Every call naming an app (`app` in its input, the contract's `appCode`) names one that exists;
 * an app's own call (not the console's) one that is enabled. The contract checks only the code's
 * shape: apps are data.
 */
export async function checkApp(
  def: EndpointDef,
  input: unknown,
  services: Services,
  grants: OperatorGrants | null,
): Promise<void> {
  const code = (input as { app?: unknown } | null)?.app;
  if (typeof code !== 'string') return;
  const app = await services.apps.get(code);
  if (!app) throw fail.badInput(`未知的应用：${code}`);
  if (!app.enabled && def.access !== 'admin') throw fail.forbidden(`应用「${app.name}」已停用，暂不提供服务`);
  // An operator limited to some apps names none of the others (a list, an export, a new record).
  if (grants && !reachesApp(grants, code)) throw fail.denied(`没有应用「${app.name}」的权限`, 'app');
}
