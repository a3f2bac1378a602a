import { buildApp } from './app';
import { cliCommands, runCli } from './cli';
import { loadConfig } from './config';
import { scheduleBackups } from './ops/backup-schedule';
import { shutdown, trackConnections } from './ops/shutdown';

const config = loadConfig();
// `node dist/main.js unlock <phone>`, `… admin list` (npm run unlock / admin): command-line tools, not the server.
if (cliCommands.has(process.argv[2] ?? '')) {
  process.exit(await runCli(process.argv.slice(2), config));
}
const built = await buildApp(config);
const { app } = built;
trackConnections(built);
await app.listen({ port: config.port, host: config.host });
app.log.info({ dataDir: config.dataDir, database: config.databaseUrl ? 'postgres' : 'sqlite' }, 'AppDesk is up');
const { db, dialect } = built.services;
const stopBackups = scheduleBackups(
  config,
  { db, dialect, dataDir: config.dataDir, databaseUrl: config.databaseUrl, filesOnS3: Boolean(config.storageUrl) },
  app.log,
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing requests in flight');
    // A scheduled backup in progress finishes first: it reads through the pool the shutdown closes.
    stopBackups()
      .then(() => shutdown(built, config.shutdownTimeoutMs, config.shutdownRefuseMs))
      .then(
        ({ forced }) => process.exit(forced ? 1 : 0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}
