import { request } from 'node:http';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { singleInstanceOnly, startServer, tinyPng } from '../../test/harness';
import { shutdown, trackConnections } from './shutdown';

/** An upload whose body arrives in two parts: the second when `finish` is called. */
function slowUpload(url: string, token: string) {
  const boundary = 'appdesk-shutdown-test';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let finish = () => {};
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new Uint8Array(Buffer.concat([head, tinyPng.subarray(0, 20)])));
      await new Promise<void>((resolve) => {
        finish = resolve;
      });
      controller.enqueue(new Uint8Array(Buffer.concat([tinyPng.subarray(20), tail])));
      controller.close();
    },
  });
  const answer = fetch(`${url}/api/finder/single`, {
    method: 'POST',
    headers: { token, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  return { answer, finish: () => finish() };
}

/** A fresh connection (no keep-alive pool): resolves to the HTTP status or the connection error's code. */
const connect = (url: string) =>
  new Promise<number | string>((resolve) => {
    const req = request(`${url}/healthz`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    req.end();
  });

describe.runIf(singleInstanceOnly('signals one process and watches its own sockets and pool'))(
  'graceful shutdown',
  () => {
    it('stops accepting, finishes the upload in flight, then closes the pool', async () => {
      const server = await startServer();
      trackConnections(server.app);
      try {
        const { token } = await server.initAdmin();
        const upload = slowUpload(server.url, token);
        await new Promise((resolve) => setTimeout(resolve, 300));
        const stopping = shutdown(server.app, 10_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await connect(server.url)).toBe('ECONNREFUSED');
        upload.finish();
        const answer = await upload.answer;
        expect((await answer.json()).code).toBe(200);
        expect(await stopping).toEqual({ forced: false });
        // The pool is closed: a query fails.
        await expect(server.app.services.db.selectFrom('users').select('id').execute()).rejects.toThrow();
      } finally {
        await server.close();
      }
    });

    it('cuts a request that outlives the timeout', async () => {
      const server = await startServer();
      trackConnections(server.app);
      try {
        const { token } = await server.initAdmin();
        const upload = slowUpload(server.url, token);
        const failed = upload.answer.then(
          () => 'answered',
          () => 'cut',
        );
        await new Promise((resolve) => setTimeout(resolve, 300));
        const started = Date.now();
        expect(await shutdown(server.app, 500)).toEqual({ forced: true });
        // The upload never ends by itself: a shutdown that waited for it would not end at all.
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(await failed).toBe('cut');
      } finally {
        await server.close();
      }
    });

    it('serves the first request of a connection accepted before the signal, as a proxy handed it over', async () => {
      const server = await startServer();
      trackConnections(server.app);
      try {
        const { port } = new URL(server.url);
        const socket = net.connect(Number(port), '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        // Accepted, nothing sent yet (a proxy writing its request): now the signal.
        await new Promise((resolve) => setTimeout(resolve, 50));
        const stopping = shutdown(server.app, 10_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(await connect(server.url)).toBe('ECONNREFUSED');
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString();
        });
        const closed = new Promise((resolve) => socket.once('close', resolve));
        socket.write(
          'POST /api/allocation/fetch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
        );
        await closed;
        expect(text).toMatch(/^HTTP\/1\.1 200/);
        expect(text.toLowerCase()).toContain('connection: close');
        expect(text).toContain('"code":200');
        expect(await stopping).toEqual({ forced: false });
      } finally {
        await server.close();
      }
    });
    it('behind a proxy, first answers new requests 503 unrun, each read whole, then closes the listener', async () => {
      const server = await startServer();
      trackConnections(server.app);
      try {
        const { token } = await server.initAdmin();
        const stopping = shutdown(server.app, 10_000, 600);
        await new Promise((resolve) => setTimeout(resolve, 50));
        // A write during the refusal: 503, Connection: close, and it did not happen.
        const refused = await fetch(`${server.url}/api/allocation/update/title`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', token },
          body: JSON.stringify({ title: '不该写入' }),
        });
        expect(refused.status).toBe(503);
        expect(refused.headers.get('connection')).toBe('close');
        expect((await refused.json()).code).toBe(503);
        const { title } = await server.app.services.db
          .selectFrom('allocation')
          .select('title')
          .executeTakeFirstOrThrow();
        expect(title).not.toBe('不该写入');
        // An upload whose body is still arriving: read to its end, then the same answer, not a reset.
        const upload = slowUpload(server.url, token);
        await new Promise((resolve) => setTimeout(resolve, 100));
        upload.finish();
        expect((await upload.answer).status).toBe(503);
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(await connect(server.url)).toBe('ECONNREFUSED');
        expect(await stopping).toEqual({ forced: false });
      } finally {
        await server.close();
      }
    });
  },
);
