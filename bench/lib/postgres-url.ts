/** How a URL reaches PostgreSQL, for the report: "the Unix socket in /var/run/postgresql" or "TCP 127.0.0.1:5432". */
export function connectionOf(url: string): string {
  const parsed = new URL(url);
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
  return host.startsWith('/') ? `the Unix socket in ${host}` : `TCP ${parsed.host || 'localhost'}`;
}
