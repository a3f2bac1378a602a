import type { FastifyInstance } from 'fastify';
import QRCode from 'qrcode';
import { renderMarkdown } from '../../core/markdown';
import type { Services } from '../../http/context';
import { readAllocation } from './service';

const legalPages = {
  agreement: { column: 'agreement', title: '用户协议' },
  privacy: { column: 'privacy', title: '隐私政策' },
} as const;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A whole, light page (no script): app stores and in-app web views open these. */
function legalHtml(siteTitle: string, pageTitle: string, body: string): string {
  const title = escapeHtml(`${pageTitle} - ${siteTitle || 'AppDesk'}`);
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><style>body{margin:0;font:16px/1.75 -apple-system,BlinkMacSystemFont,"PingFang SC","Microsoft YaHei",sans-serif;color:#1f2329;background:#fff}main{max-width:760px;margin:0 auto;padding:24px 20px 48px}h1{font-size:24px}img{max-width:100%}table{border-collapse:collapse}td,th{border:1px solid #dcdfe6;padding:4px 8px}</style></head><body><main><h1>${escapeHtml(pageTitle)}</h1>${body}</main></body></html>`;
}

/**
 * Public pages outside the API: 用户协议 and 隐私政策 at stable URLs that app stores and the apps
 * link to, and the QR codes of the download links shown on the home page.
 */
export default async function siteRoutes(app: FastifyInstance, services: Services): Promise<void> {
  for (const [kind, page] of Object.entries(legalPages)) {
    app.get(`/legal/${kind}`, async (_request, reply) => {
      const site = await readAllocation(services.db);
      const text = site[page.column].trim();
      const body = text ? renderMarkdown(text) : `<p>本站尚未发布${page.title}。</p>`;
      reply
        .code(text ? 200 : 404)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache');
      return legalHtml(site.title, page.title, body);
    });
  }

  for (const platform of ['android', 'ios'] as const) {
    app.get(`/site/qr/${platform}.svg`, async (_request, reply) => {
      const site = await readAllocation(services.db);
      const url = platform === 'android' ? site.android_url : site.ios_url;
      if (!url) return reply.code(404).type('text/plain; charset=utf-8').send('未设置下载地址');
      const svg = await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' });
      return reply.type('image/svg+xml').header('cache-control', 'no-cache').send(svg);
    });
  }
}
