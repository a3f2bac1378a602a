import { buildApp } from './app';
import { loadConfig } from './config';

const config = loadConfig();
// `node dist/main.js unlock <phone>` (npm run unlock): a command-line tool, not the server.
if (process.argv[2] === 'unlock') {
  const { runCli } = await import('./cli');
  process.exit(await runCli(process.argv.slice(2), config));
}
const { app, close } = await buildApp(config);
await app.listen({ port: config.port, host: config.host });
app.log.info({ dataDir: config.dataDir, database: config.databaseUrl ? 'postgres' : 'sqlite' }, 'AppDesk is up');

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
