import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adminKeys, adminPageDeclarations } from '../../../../e2e/adminPages';
import { adminPageChunks } from './adminChunks';
import { adminMenuGroups, adminPages } from './adminPages';

const pagesDir = new URL('../pages/admin/', import.meta.url);
const folders = readdirSync(pagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

describe('admin pages are found, not listed', () => {
  it('every page folder declares its menu entry (page.ts) and has its code (index.tsx)', () => {
    const missing = folders.flatMap((key) =>
      ['page.ts', 'index.tsx']
        .filter((file) => !existsSync(new URL(`${key}/${file}`, pagesDir)))
        .map((f) => `${key}/${f}`),
    );
    expect(missing).toEqual([]);
    expect(adminPages.map((p) => p.key).sort()).toEqual([...folders].sort());
    expect(Object.keys(adminPageChunks).sort()).toEqual([...folders].sort());
  });

  it('the page-walking e2e specs walk the same pages in the same order as the menu', () => {
    expect(adminKeys).toEqual(adminPages.map((p) => p.key));
    // The specs read the declarations as text; what they read must be what the console uses.
    expect(adminPageDeclarations.map(({ key, label, inMenu }) => ({ key, label, inMenu }))).toEqual(
      adminPages.map((p) => ({ key: p.key, label: p.label, inMenu: p.inMenu !== false })),
    );
  });

  it('menu entries sit in known groups with distinct labels and orders', () => {
    const groups = new Set<string>(adminMenuGroups.map((g) => g.key));
    expect(adminPages.filter((p) => !groups.has(p.group)).map((p) => p.key)).toEqual([]);
    expect(new Set(adminPages.map((p) => p.label)).size).toBe(adminPages.length);
    expect(new Set(adminPages.map((p) => p.order)).size).toBe(adminPages.length);
  });
});
