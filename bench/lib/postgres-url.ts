import { existsSync } from 'node:fs';

/** Where Debian's PostgreSQL puts its socket. */
const socketDir = '/var/run/postgresql';

/** The local PostgreSQL's maintenance database: through its Unix socket when there is one, else TCP. */
export function localPostgresUrl(): string {
  return existsSync(`${socketDir}/.s.PGSQL.5432`)
    ? `postgres://postgres@localhost/postgres?host=${socketDir}`
    : 'postgres://postgres@127.0.0.1:5432/postgres';
}

/** How a URL reaches PostgreSQL, for the report: "the Unix socket in /var/run/postgresql" or "TCP 127.0.0.1:5432". */
export function connectionOf(url: string): string {
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
  return host.startsWith('/') ? `the Unix socket in ${host}` : `TCP ${parsed.host || 'localhost'}`;
}
