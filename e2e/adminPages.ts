import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Every admin page, found as the console finds it: a folder of packages/web/src/pages/admin with a
 * `page.ts` declaration (the console globs the same files). Specs that walk every page use this, so
 * a page added later is walked without editing them. In menu order (the declaration's `order`).
 */
const pagesDir = new URL('../packages/web/src/pages/admin/', import.meta.url);

export const adminKeys: string[] = readdirSync(pagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/page.ts`, pagesDir)))
  .map((entry) => {
    const declaration = readFileSync(new URL(`${entry.name}/page.ts`, pagesDir), 'utf8');
    return { key: entry.name, order: Number(/\border: (\d+)/.exec(declaration)?.[1] ?? Infinity) };
  })
  .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key))
  .map((page) => page.key);
