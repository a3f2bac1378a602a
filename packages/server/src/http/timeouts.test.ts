import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { singleInstanceOnly, startServer, type TestServer, tinyPng } from '../../test/harness';

const HEADERS_MS = 2_000;
let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startServer({ headersTimeoutMs: HEADERS_MS });
  token = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

/** Milliseconds until the server closes a connection that sends its headers one byte a second; null if it never does within `withinMs`. */
function slowHeaders(url: string, withinMs: number): Promise<{ ms: number | null; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname);
    let answer = '';
    const head = `POST /api/users/fetch/info HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: `;
    socket.write(head);
    const drip = setInterval(() => socket.write('a'), 1_000);
    const give = setTimeout(() => finish(null), withinMs);
    const finish = (ms: number | null) => {
      clearInterval(drip);
      clearTimeout(give);
      socket.destroy();
      resolve({ ms, answer });
    };
    socket.on('data', (chunk) => {
      answer += chunk.toString();
    });
    socket.on('close', () => finish(performance.now() - started));
    socket.on('error', () => {});
  });
}

// Behind nginx a slow client talks to nginx, whose own client_header_timeout applies, not the instance's.
describe.runIf(singleInstanceOnly('the header timeout is the instance’s, reached without nginx'))(
  'a connection to an instance reached directly',
  () => {
    it('that sends its headers one byte a second is cut off after the header timeout', async () => {
      const { ms, answer } = await slowHeaders(server.url, 15_000);
      expect(ms).not.toBeNull();
      expect(ms).toBeGreaterThanOrEqual(HEADERS_MS - 100);
      // Checked every quarter of the timeout (at most every second): about HEADERS_MS + 1 s, later
      // only on a busy machine; a connection never cut off would hold out the whole 15 s.
      expect(ms).toBeLessThan(HEADERS_MS + 8_000);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
    }, 20_000);

    it('whose upload body arrives slower than the header timeout is still answered', async () => {
      const boundary = 'appdesk-slow-upload';
      const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
      const parts = [Buffer.from(head), ...Array.from({ length: 4 }, (_, i) => tinyPng.subarray(i * 20, (i + 1) * 20))];
      const rest = Buffer.concat([tinyPng.subarray(80), Buffer.from(`\r\n--${boundary}--\r\n`)]);
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (const part of parts) {
            controller.enqueue(new Uint8Array(part));
            await new Promise((resolve) => setTimeout(resolve, 1_000));
          }
          controller.enqueue(new Uint8Array(rest));
          controller.close();
        },
      });
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/finder/single`, {
        method: 'POST',
        headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit);
      expect(performance.now() - started).toBeGreaterThan(HEADERS_MS * 2 - 200);
      expect(((await answer.json()) as { code: number }).code).toBe(200);
    }, 20_000);
  },
);
