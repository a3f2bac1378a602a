import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { redactedLogPaths } from './request-log';

it('a log call handed a body or a request whole still writes no token and no plain password', async () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { level: 'info', stream, redact: redactedLogPaths } });
  const log = app.log;
  const plainPassword = 'Lan-2026-desk';
  log.info({ plainPassword }, 'top level');
  log.info({ body: { old: 'a', refresh: 'b', plainPassword } }, 'a body');
  log.info({ req: { body: { plainPassword }, headers: { token: 'session-token', cookie: 'c=1' } } }, 'a request');
  await app.close();
  const text = lines.join('');
  expect(lines).toHaveLength(3);
  expect(text).not.toContain(plainPassword);
  expect(text).not.toContain('session-token');
  expect(text).toContain('[Redacted]');
});
