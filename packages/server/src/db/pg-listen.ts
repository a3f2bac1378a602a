import pg from 'pg';
import type { ListenEvents } from '../core/session-cache';

const FIRST_RETRY_MS = 500;
const LAST_RETRY_MS = 30_000;

/**
 * Listens to a PostgreSQL notification channel on a connection of its own (a pooled connection
 * is handed from query to query and cannot hold a LISTEN). A lost connection is reported at once
 * and opened again, waiting twice as long after each failure up to 30 s; `open` is reported only
 * once LISTEN has taken effect. Returns how to stop.
 */
export function listenTo(
  connectionString: string,
  channel: string,
  events: ListenEvents,
  onError: (error: Error) => void,
  /** Names the connection in pg_stat_activity. */
  applicationName: string,
): () => void {
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let retry: NodeJS.Timeout | undefined;
  let current: pg.Client | undefined;

  const connect = async () => {
    const client = new pg.Client({ connectionString, keepAlive: true, application_name: applicationName });
    current = client;
    let lost = false;
    const drop = (error?: Error) => {
      if (lost) return;
      lost = true;
      events.lost();
      client.end().catch(() => {});
      if (stopped) return;
      if (error) onError(error);
      retry = setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    };
    client.on('error', drop);
    client.on('end', () => drop(new Error('监听连接已断开')));
    client.on('notification', (message) => {
      if (message.channel === channel) events.notified();
    });
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
      if (lost) return;
      if (stopped) {
        drop();
        return;
      }
      retryMs = FIRST_RETRY_MS;
      events.open();
    } catch (error) {
      drop(error as Error);
    }
  };
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retry);
    current?.end().catch(() => {});
  };
}
