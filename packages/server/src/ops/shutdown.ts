import net, { type Socket } from 'node:net';
import type { App } from '../app';

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
 */
export async function shutdown(app: App, timeoutMs: number): Promise<{ forced: boolean }> {
  const server = app.app.server;
  const drain = drains.get(server);
  let forced = false;
  const timer = setTimeout(() => {
    forced = true;
    app.app.log.warn({ timeoutMs }, '停机超时：仍在处理的请求被中断');
    server.closeAllConnections();
  }, timeoutMs);
  try {
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
  const drain: Drain = { draining: false, connections: new Map() };
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
