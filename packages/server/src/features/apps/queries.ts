import type { AppView } from '@appdesk/contract/endpoints/apps';
import { appSecretKinds } from '@appdesk/contract/rules/apps';
import { type AppRecord, type AppRegistry, readApps } from '../../core/apps';
import type { Db } from '../../db/index';
import { iso } from '../../db/paging';
import { fail } from '../../http/errors';

/** What an operator sees of an app: every setting, and of a secret only whether it is set, when and from where. */
export function presentApp(app: AppRecord, apps: AppRegistry): AppView {
  const { secrets, createdAt, updatedAt, ...settings } = app;
  const fromEnvironment = apps.fromEnvironment(app);
  // The environment's platform wins for the default app (core/apps.ts): its secret is in use from there.
  const envFor = { googleServiceAccount: fromEnvironment.google, wechatApiV3Key: fromEnvironment.wechat };
  return {
    ...settings,
    secrets: Object.fromEntries(
      appSecretKinds.map(({ value: kind }) => {
        const stored = secrets[kind];
        const source = envFor[kind] ? 'environment' : stored ? 'console' : 'none';
        return [kind, { set: source !== 'none', setAt: stored ? iso(stored.setAt) : null, source }];
      }),
    ) as AppView['secrets'],
    fromEnvironment,
    createdAt: iso(createdAt),
    updatedAt: iso(updatedAt),
  };
}

/** One app, read now (not from the registry's cache): the console edits what is stored. */
export async function loadApp(db: Db, id: number): Promise<AppRecord> {
  const app = (await readApps(db)).find((a) => a.id === id);
  if (!app) throw fail.notFound('应用不存在');
  return app;
}
