import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endpointEntries } from '../src/endpoints/index';

const pagesDir = new URL('../../web/src/pages/admin/', import.meta.url);
const targets = new Map(
  endpointEntries.flatMap(([, def]) => (def.audit ? [[def.audit.target.type, def.audit.target]] : [])),
);

describe('every audited write links its operation-log rows to a page', () => {
  it("each audited endpoint's target declares a console page", () => {
    const without = [...targets.values()].filter((t) => t.page === null).map((t) => t.type);
    expect(without).toEqual([]);
  });

  it('the declared page exists: a folder of the console with its page.ts', () => {
    const missing = [...targets.values()]
      .flatMap((t) => (t.page ? [`${t.type} → ${t.page.key}`] : []))
      .filter((entry) => !existsSync(new URL(`${entry.split(' → ')[1]}/page.ts`, pagesDir)));
    expect(missing).toEqual([]);
  });

  it('a page that opens one record names where the id goes', () => {
    const bad = [...targets.values()].filter((t) => t.page?.open !== undefined && !t.page.open.includes('{id}'));
    expect(bad.map((t) => t.type)).toEqual([]);
  });
});
