import net, { type Socket } from 'node:net';
import { Code } from '@appdesk/contract/codes';
import type { FastifyInstance } from 'fastify';
import type { App } from '../app';
import { afterBody } from '../http/after-body';
import { envelope } from '../http/route';

/** A connection open for this long without sending a whole request is not waited for. */
const SILENT_CONNECTION_MS = 2000;

/**
 * Graceful stop (SIGTERM, SIGINT). First the listener closes (only it: Node's own `server.close()`
 * also drops connections that have not sent a request yet, and those are requests a proxy already
 * handed over, which it could then neither have answered nor safely pass on), so a load balancer's
 * next connection is refused and goes to another instance. Every connection already accepted is
 * served, its first request included, with `Connection: close`; a connection is closed as soon as it
 * has answered and is idle; one that stays silent for 2 s is dropped. Then Fastify closes and the
 * database pool with it. What is still running after `timeoutMs` is cut. Answers whether it had to cut.
 *
 * Behind a proxy, `refuseMs` comes first: for that long the listener stays open and every request that
 * arrives is read whole and answered HTTP 503 without running (`refuseWhileStopping`), which nginx
 * passes on to another instance (deploy/nginx) and counts against this one, so it stops sending here.
 * Closing the listener at once instead resets the connections the kernel has accepted but the server
 * has not yet taken, with their requests already written: a proxy can pass none of those on safely.
 */
export async function shutdown(app: App, timeoutMs: number, refuseMs = 0): Promise<{ forced: boolean }> {
  const server = app.app.server;
  const drain = drains.get(server);
  let forced = false;
  const timer = setTimeout(() => {
    forced = true;
    app.app.log.warn({ timeoutMs }, '停机超时：仍在处理的请求被中断');
    server.closeAllConnections();
  }, timeoutMs);
  try {
    if (drain && refuseMs > 0) {
      drain.refusing = true;
      await new Promise((resolve) => setTimeout(resolve, refuseMs));
    }
    if (drain) {
      drain.draining = true;
      net.Server.prototype.close.call(server);
      await new Promise<void>((resolve) => {
        const sweep = setInterval(() => {
          const now = Date.now();
          for (const [socket, state] of drain.connections) {
            const silent = state.served === 0 && now - state.since > SILENT_CONNECTION_MS;
            if (!state.active && (state.served > 0 || silent)) socket.destroy();
          }
          if (drain.connections.size === 0 || forced) {
            clearInterval(sweep);
            resolve();
          }
        }, 20);
      });
    }
    // Closes what is left (keep-alive connections of clients that never sent a request) and the pool.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    try {
      await app.close();
    } finally {
      clearInterval(sweep);
    }
  } finally {
    clearTimeout(timer);
  }
  return { forced };
}

interface Drain {
  /** Answering new requests 503 (shutdown's `refuseMs`). */
  refusing: boolean;
  draining: boolean;
  connections: Map<Socket, { since: number; served: number; active: boolean }>;
}
const drains = new WeakMap<object, Drain>();

/**
 * Counts each connection's requests from the start, so a shutdown knows which connections are
 * idle after answering and which have not delivered their first request yet. Call before listening.
 */
export function trackConnections(app: App): void {
  const server = app.app.server;
  const drain: Drain = { refusing: false, draining: false, connections: new Map() };
  drains.set(server, drain);
  server.on('connection', (socket: Socket) => {
    drain.connections.set(socket, { since: Date.now(), served: 0, active: false });
    socket.once('close', () => drain.connections.delete(socket));
  });
  server.on('request', (request, response) => {
    const state = drain.connections.get(request.socket);
    if (state) state.active = true;
    if (drain.draining) response.shouldKeepAlive = false;
    response.once('finish', () => {
      if (!state) return;
      state.active = false;
      state.served += 1;
    });
  });
}

/**
 * While a shutdown refuses (its `refuseMs`), a request is read to its end, so closing the connection
 * after the answer never resets it under a proxy still writing, and answered HTTP 503 with nothing
 * run: a stopping instance's 503 means "not done, send it elsewhere". Register before the app is ready.
 */
export function refuseWhileStopping(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    if (!drains.get(app.server)?.refusing) return done();
    void afterBody(request, () =>
      reply
        .status(503)
        .header('Connection', 'close')
        .header('Retry-After', '1')
        .send(envelope(Code.UNAVAILABLE, '服务正在重启，请稍后重试')),
    );
  });
}
