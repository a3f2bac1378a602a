import type { App } from '../app';

/**
 * Graceful stop (SIGTERM, SIGINT): the listener closes at once, so a load balancer's next
 * connection goes to another instance; a request arriving on an already open keep-alive
 * connection is answered 503 with `Connection: close`; requests in flight finish, up to
 * `timeoutMs`, after which their connections are cut; then the database pool closes.
 * Answers whether the timeout had to cut anything.
 */
export async function shutdown(app: App, timeoutMs: number): Promise<{ forced: boolean }> {
  let forced = false;
  const timer = setTimeout(() => {
    forced = true;
    app.app.log.warn({ timeoutMs }, '停机超时：仍在处理的请求被中断');
    app.app.server.closeAllConnections();
  }, timeoutMs);
  // A keep-alive connection whose request finishes after the close began stays open, idle, until
  // the client drops it: closed here as soon as it is idle.
  const sweep = setInterval(() => app.app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearTimeout(timer);
    clearInterval(sweep);
  }
  return { forced };
}
