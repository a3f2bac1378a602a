// biome-ignore lint/style/noRestrictedImports: a test (never bundled) checks the list of app-scoped reads against the contract's schemas.
import { endpointEntries } from '@appdesk/contract/endpoints/index';
import { describe, expect, it } from 'vitest';
import { followsApp, scopeToApp } from './appScope';

/** What the contract's zod says of a path: its input's optional top-level `app`, its output a page. */
function contractSays(def: (typeof endpointEntries)[number][1]) {
  const input = (def.input as { shape?: Record<string, { safeParse(v: unknown): { success: boolean } }> }).shape;
  const output = (def.output as { shape?: Record<string, unknown> }).shape;
  return {
    optionalApp: input?.app?.safeParse(undefined).success === true,
    paged: output !== undefined && 'list' in output && 'total' in output,
  };
}

describe("the reads that follow the header's app", () => {
  it('are exactly the console lists and dashboard calls whose input takes an optional app', () => {
    const expected = endpointEntries
      .filter(([path, def]) => {
        const { optionalApp, paged } = contractSays(def);
        return optionalApp && (paged || path.startsWith('/api/dashboard/'));
      })
      .map(([path]) => path)
      .sort();
    expect(expected.length).toBeGreaterThan(0);
    // Named app-facing lists (an app's own records) and the users list (accounts are company-wide) do not follow.
    const ownFilterOnly = [
      '/api/exchange/fetch/mine',
      '/api/message/fetch/page/mine',
      '/api/message/fetch/page/unread',
      '/api/users/fetch/page',
    ];
    expect(
      endpointEntries
        .map(([path]) => path)
        .filter(followsApp)
        .sort(),
    ).toEqual(expected.filter((p) => !ownFilterOnly.includes(p)));
    for (const p of ownFilterOnly) expect(followsApp(p), p).toBe(false);
  });

  it("send the switcher's app in place of the page's, and none under 全部应用", () => {
    expect(scopeToApp('/api/version/fetch/page', { app: 'tailor', status: 'published' }, 'quote')).toEqual({
      app: 'quote',
      status: 'published',
    });
    expect(scopeToApp('/api/version/fetch/page', { app: 'tailor', status: 'published' }, undefined)).toEqual({
      status: 'published',
    });
    // A company-wide read is asked as it is.
    expect(scopeToApp('/api/coin/fetch/page', { userId: 3 }, 'quote')).toEqual({ userId: 3 });
    expect(followsApp('/api/coin/fetch/page')).toBe(false);
  });
});
