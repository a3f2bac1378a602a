import { existsSync, readdirSync, readFileSync } from 'node:fs';

/**
 * Every admin page, found as the console finds it: a folder of packages/web/src/pages/admin with a
 * `page.ts` declaration (the console globs the same files). Specs that walk every page use this, so
 * a page added later is walked without editing them. In menu order (the declaration's `order`).
 * The declarations are read as text: they import icons and Vite-only modules Playwright cannot load.
 */
const pagesDir = new URL('../packages/web/src/pages/admin/', import.meta.url);

export interface AdminPageDeclaration {
  key: string;
  label: string;
  /** false for pages reached from elsewhere (the account page, the inbox), not from the side menu. */
  inMenu: boolean;
  order: number;
}

export const adminPageDeclarations: AdminPageDeclaration[] = readdirSync(pagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/page.ts`, pagesDir)))
  .map((entry) => {
    const declaration = readFileSync(new URL(`${entry.name}/page.ts`, pagesDir), 'utf8');
    return {
      key: entry.name,
      label: /\blabel: '([^']+)'/.exec(declaration)?.[1] ?? entry.name,
      inMenu: !/\binMenu: false\b/.test(declaration),
      order: Number(/\border: (\d+)/.exec(declaration)?.[1] ?? Infinity),
    };
  })
  .sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));

export const adminKeys: string[] = adminPageDeclarations.map((page) => page.key);
