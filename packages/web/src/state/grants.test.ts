import { readdirSync, readFileSync } from 'node:fs';
// biome-ignore lint/style/noRestrictedImports: a test (never bundled) checks the console's table against the contract.
import { endpointEntries } from '@appdesk/contract/endpoints/index';
import { builtinRoles, type EndpointPermission, withPageReads } from '@appdesk/contract/permissions';
import type { ApiPath } from '@appdesk/contract/types';
import { describe, expect, it } from 'vitest';
import { endpointPermissions } from './endpointPermissions';
import { allowsPath, lacking, permissionOfPath } from './grants';

function holding(role: keyof typeof builtinRoles) {
  const held = new Set<string>(withPageReads(builtinRoles[role].permissions));
  return (permission: EndpointPermission) => permission === 'any-operator' || held.has(permission);
}

describe("a button's permission is its endpoint's, from the contract", () => {
  it('the table holds every admin endpoint with the permission the server checks, and nothing else', () => {
    const admin = endpointEntries.filter(([, def]) => def.access === 'admin');
    expect(Object.keys(endpointPermissions).sort()).toEqual(admin.map(([path]) => path).sort());
    for (const [path, def] of admin) expect(endpointPermissions[path]).toBe(def.permission);
  });

  it('maps paths to permissions, batches and exports included', () => {
    expect(permissionOfPath('/api/order/refund')).toBe('order.refund');
    expect(permissionOfPath('/api/users/fetch/phone')).toBe('users.revealPhone');
    expect(permissionOfPath('/api/users/export')).toBe('users.export');
    expect(permissionOfPath('/api/version/publish/batch')).toBe('version.publish');
    expect(permissionOfPath('/api/users/update/admin')).toBe('operators.manage');
    // The account's own calls ask no permission of an operator.
    expect(permissionOfPath('/api/users/update/password')).toBeUndefined();
  });

  it('客服 may reply to feedback and send messages, not refund, export or reveal a phone', () => {
    const can = holding('support');
    const yes: ApiPath[] = [
      '/api/feedback/reply',
      '/api/feedbackv2/reply',
      '/api/message/make',
      '/api/order/fetch/page',
    ];
    const no: ApiPath[] = ['/api/order/refund', '/api/order/export', '/api/users/export', '/api/users/fetch/phone'];
    expect(yes.filter((path) => !allowsPath(can, path))).toEqual([]);
    expect(no.filter((path) => allowsPath(can, path))).toEqual([]);
  });

  it('财务 may refund and export orders, not publish releases', () => {
    const can = holding('finance');
    expect(allowsPath(can, '/api/order/refund')).toBe(true);
    expect(allowsPath(can, '/api/order/export')).toBe(true);
    expect(allowsPath(can, '/api/version/publish')).toBe(false);
    expect(allowsPath(can, '/api/version/fetch/page')).toBe(false);
    // Calls that ask no permission (the account's own) are never hidden.
    expect(allowsPath(can, '/api/users/update/password')).toBe(true);
  });

  it('a disabled control names what is missing in words', () => {
    expect(lacking('/api/finder/single')).toBe('需要「文件管理 · 上传文件」权限，请联系超级管理员');
  });
});

/**
 * Not a proof that every button is hidden from whoever may not press it, but the check that each
 * write a page calls is gated somewhere on that page: by its own path or one needing the same
 * permission (`canCall('…')`, `useCanCall('…')`, `<Allowed path="…">`, a ConfirmLink's or a row
 * action's `path`, a batch button's `path`, or ListView's `exportPath`, which the list gates).
 */
describe('every write a console page calls is gated on that page', () => {
  const pagesDir = new URL('../pages/admin/', import.meta.url);
  // The operator's own account and inbox ask no permission; the roles and operators pages gate themselves.
  const own = new Set(['account', 'inbox']);
  const sources = (folder: string) =>
    readdirSync(new URL(`${folder}/`, pagesDir))
      .filter((file) => file.endsWith('.tsx') || (file.endsWith('.ts') && !/\.(test|e2e)\.ts$/.test(file)))
      .map((file) => readFileSync(new URL(`${folder}/${file}`, pagesDir), 'utf8'))
      .join('\n');
  const found = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((m) => m[1] as ApiPath);
  const calls = /(?:useApiAction|downloadExport|upload(?:<[^>]*>)?)\(\s*'(\/api\/[^']+)'/g;
  const gates =
    /(?:canCall|useCanCall)\('(\/api\/[^']+)'\)|path(?:=|: )["'](\/api\/[^"']+)["']|exportPath="(\/api\/[^"]+)"/g;

  for (const folder of readdirSync(pagesDir, { withFileTypes: true })) {
    if (!folder.isDirectory() || own.has(folder.name)) continue;
    it(folder.name, () => {
      const text = sources(folder.name);
      const gated = new Set([...text.matchAll(gates)].map((m) => permissionOfPath((m[1] ?? m[2] ?? m[3]) as ApiPath)));
      const ungated = found(text, calls).filter((path) => {
        const permission = permissionOfPath(path);
        // Reads of the page itself come with the page; calls asking no permission are the account's own.
        if (!permission || permission === 'any-operator' || permission.endsWith('.read')) return false;
        return !gated.has(permission);
      });
      expect(ungated).toEqual([]);
    });
  }
});
