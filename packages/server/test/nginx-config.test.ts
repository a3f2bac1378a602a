import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type EndpointDef, endpoints } from '@appdesk/contract';
import { uploadLimits } from '@appdesk/contract/constants';
import { describe, expect, it } from 'vitest';
import { renderNginxSite } from '../../../scripts/cluster';
import { testDb } from './harness';

/** deploy/nginx/appdesk.conf against the server: every upload endpoint fits nginx's body limit for it. */
describe.runIf(testDb === 'sqlite')('nginx configuration (deploy/nginx/appdesk.conf)', () => {
  const site = renderNginxSite({ listen: '127.0.0.1:8080', upstreams: ['127.0.0.1:8001'], webDir: '/srv/web' });
  const mb = (value: string) => Number.parseInt(value, 10) * 1024 * 1024;
  const defaultLimit = mb(site.match(/^\s{4}client_max_body_size (\d+)m;/m)?.[1] ?? '0');
  /** The limit nginx applies to an exact path: its own `location =` block's, else the server's. */
  const limitFor = (apiPath: string) => {
    const block = site.match(new RegExp(`location = ${apiPath} \\{[^}]*client_max_body_size (\\d+)m;`));
    return block ? mb(block[1]) : defaultLimit;
  };

  it('lets through the largest file each upload endpoint takes, plus framing, and little more', () => {
    const uploads = (Object.entries(endpoints) as [string, EndpointDef][]).filter(([, def]) => def.upload);
    expect(uploads.length).toBeGreaterThan(5);
    for (const [apiPath, def] of uploads) {
      const kind = def.upload?.kind ?? 'image';
      const largest = kind === 'any' ? Math.max(...Object.values(uploadLimits)) : uploadLimits[kind];
      const allowed = limitFor(apiPath);
      expect(allowed, apiPath).toBeGreaterThan(largest);
      expect(allowed - largest, apiPath).toBeLessThanOrEqual(2 * 1024 * 1024);
    }
  });

  it('passes nginx -t (when nginx is installed)', () => {
    try {
      execFileSync('sh', ['-c', 'command -v nginx'], { stdio: 'ignore' });
    } catch {
      console.log('nginx -t skipped: nginx is not installed');
      return;
    }
    const dir = mkdtempSync(path.join(tmpdir(), 'appdesk-nginx-t-'));
    try {
      writeFileSync(path.join(dir, 'appdesk.conf'), site);
      const load = site.includes('brotli')
        ? 'load_module /usr/lib/nginx/modules/ngx_http_brotli_filter_module.so;\nload_module /usr/lib/nginx/modules/ngx_http_brotli_static_module.so;\n'
        : '';
      writeFileSync(
        path.join(dir, 'nginx.conf'),
        `${load}pid ${dir}/nginx.pid;\nerror_log stderr;\nevents {}\nhttp {\n include /etc/nginx/mime.types;\n client_body_temp_path ${dir}/b;\n proxy_temp_path ${dir}/p;\n fastcgi_temp_path ${dir}/f;\n uwsgi_temp_path ${dir}/u;\n scgi_temp_path ${dir}/s;\n include ${dir}/appdesk.conf;\n}\n`,
      );
      execFileSync('nginx', ['-t', '-q', '-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', 'stderr'], {
        stdio: 'pipe',
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
