import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpointEntries } from '../src/endpoints/index';
import {
  ANY_OPERATOR,
  builtinRoles,
  isPermission,
  permissionLabel,
  permissionList,
  permissionPages,
  withPageReads,
} from '../src/permissions';

const pagesDir = new URL('../../web/src/pages/admin/', import.meta.url);

describe('every admin endpoint names the permission it needs', () => {
  it('no admin endpoint lacks a permission, and only admin endpoints name one', () => {
    const without = endpointEntries.filter(([, def]) => def.access === 'admin' && !def.permission).map(([p]) => p);
    const stray = endpointEntries.filter(([, def]) => def.access !== 'admin' && def.permission).map(([p]) => p);
    expect(without).toEqual([]);
    expect(stray).toEqual([]);
  });

  it('each named permission is in the catalog', () => {
    const unknown = endpointEntries
      .filter(([, def]) => def.permission && def.permission !== ANY_OPERATOR && !isPermission(def.permission))
      .map(([p, def]) => `${p}: ${def.permission}`);
    expect(unknown).toEqual([]);
  });

  it("an export needs its page's export permission, never a read", () => {
    const bad = endpointEntries
      .filter(([, def]) => def.download && !def.permission?.endsWith('.export'))
      .map(([p, def]) => `${p}: ${def.permission}`);
    expect(bad).toEqual([]);
  });

  it('a batch needs what its single action needs', () => {
    const table = new Map(endpointEntries);
    const bad = endpointEntries
      .filter(([, def]) => def.batchOf && table.get(def.batchOf as never)?.permission !== def.permission)
      .map(([p]) => p);
    expect(bad).toEqual([]);
  });

  it('only reads and the console plumbing are open to any operator; every write names its permission', () => {
    const anyWrites = endpointEntries.filter(([, def]) => def.permission === ANY_OPERATOR && def.audit).map(([p]) => p);
    expect(anyWrites).toEqual([]);
  });
});

describe('the catalog', () => {
  it('each page of the catalog is a console page with a read permission', () => {
    const missing = Object.keys(permissionPages).filter((page) => !existsSync(new URL(`${page}/page.ts`, pagesDir)));
    expect(missing).toEqual([]);
    expect(Object.values(permissionPages).every((page) => 'read' in page.actions)).toBe(true);
  });

  it('each page of the catalog is named as its menu entry is', () => {
    const misnamed = Object.entries(permissionPages)
      .filter(([page, { label }]) => {
        const decl = readFileSync(new URL(`${page}/page.ts`, pagesDir), 'utf8');
        return !decl.includes(`label: '${label}'`);
      })
      .map(([page, { label }]) => `${page}: ${label}`);
    expect(misnamed).toEqual([]);
  });

  it('labels are Chinese and read page · action', () => {
    expect(permissionLabel('order.refund')).toBe('订单管理 · 退款');
    expect(permissionList.every((p) => /[\u4e00-\u9fa5]/.test(p.label))).toBe(true);
  });

  it('holding an action of a page holds its read; unknown keys are dropped', () => {
    expect(withPageReads(['order.refund', 'nope.read'])).toEqual(['order.read', 'order.refund']);
  });

  it('sensitive actions are marked: reveals, exports, refunds, coins, VIP, operators, roles, settings', () => {
    const sensitive = new Set(permissionList.filter((p) => p.sensitive).map((p) => p.key));
    for (const key of [
      'users.revealPhone',
      'users.export',
      'order.refund',
      'users.coins',
      'users.vip',
      'operators.manage',
      'roles.manage',
      'allocation.update',
      'apps.secrets',
    ]) {
      expect(sensitive.has(key as never), key).toBe(true);
    }
  });

  it('客服 cannot refund, export or reveal; 财务 refunds and exports orders but cannot publish; 只读审计 writes nothing', () => {
    const support = new Set<string>(builtinRoles.support.permissions);
    expect([...support].filter((k) => /refund|export|revealPhone/.test(k))).toEqual([]);
    const finance = new Set<string>(builtinRoles.finance.permissions);
    expect(finance.has('order.refund') && finance.has('order.export')).toBe(true);
    expect(finance.has('version.publish')).toBe(false);
    expect(builtinRoles.auditor.permissions.every((k) => k.endsWith('.read'))).toBe(true);
    expect(builtinRoles.auditor.permissions).toContain('audit.read');
  });
});
