import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

describe('site settings and compliance', () => {
  it('one save changes only what differs, logs it, and the home page data carries the 备案号 and links', async () => {
    const saved = await server.call(
      '/api/allocation/update',
      {
        icp: '京ICP备12345678号-1',
        police: '京公网安备11010802012345号',
        androidUrl: 'https://example.com/app.apk',
        agreement: '# 用户协议\n\n<script>alert(1)</script>\n\n请遵守**法律**。',
      },
      token,
    );
    expect([saved.body.code, saved.body.message]).toEqual([200, '站点配置已保存']);
    const fetched = (await server.call('/api/allocation/fetch')).body.data as { allocation: Record<string, unknown> };
    expect(fetched.allocation).toMatchObject({
      icp: '京ICP备12345678号-1',
      police: '京公网安备11010802012345号',
      androidUrl: 'https://example.com/app.apk',
      iosUrl: '',
      hasAgreement: true,
      hasPrivacy: false,
    });
    // The public answer never carries the long legal texts.
    expect(JSON.stringify(fetched)).not.toContain('请遵守');

    const log = await server.call('/api/audit/fetch/page', { action: 'allocation.update', size: 1 }, token);
    const [row] = (log.body.data as { list: { before: object; after: Record<string, string> }[] }).list;
    expect(Object.keys(row?.after ?? {}).sort()).toEqual(['agreement', 'androidUrl', 'icp', 'police']);

    const again = await server.call('/api/allocation/update', { icp: '京ICP备12345678号-1' }, token);
    expect([again.body.code, again.body.message]).toEqual([400, '没有需要保存的修改']);
    const bad = await server.call('/api/allocation/update', { androidUrl: 'javascript:alert(1)' }, token);
    expect(bad.body.code).toBe(400);
    expect(bad.body.message).toContain('下载地址应以 http:// 或 https:// 开头');

    const settings = await server.call('/api/allocation/fetch/settings', {}, token);
    expect((settings.body.data as { settings: { agreement: string } }).settings.agreement).toContain('请遵守');
  });

  it('serves the legal pages sanitised at public URLs, and the download QR codes', async () => {
    const agreement = await fetch(`${server.url}/legal/agreement`);
    expect(agreement.status).toBe(200);
    expect(agreement.headers.get('content-type')).toContain('text/html');
    const html = await agreement.text();
    expect(html).toContain('<strong>法律</strong>');
    expect(html).toMatch(/<title>用户协议 - .+<\/title>/);
    expect(html).not.toContain('<script>alert');

    const privacy = await fetch(`${server.url}/legal/privacy`);
    expect(privacy.status).toBe(404);
    expect(await privacy.text()).toContain('本站尚未发布隐私政策');

    const qr = await fetch(`${server.url}/site/qr/android.svg`);
    expect([qr.status, qr.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
    expect(await qr.text()).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
    expect((await fetch(`${server.url}/site/qr/ios.svg`)).status).toBe(404);
  });
});
