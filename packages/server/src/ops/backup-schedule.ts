import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import { archiveSize, type BackupSource, makeBackup, pruneBackups } from './backup';

/**
 * Scheduled backups (`BACKUP_DIR` set): one every `BACKUP_INTERVAL_HOURS`, keeping the newest
 * `BACKUP_KEEP` archives. Answers a stop function (called on shutdown); a backup in progress
 * finishes first. Set BACKUP_DIR on one instance only when several share a database.
 */
export function scheduleBackups(config: Config, source: BackupSource, log: FastifyBaseLogger): () => Promise<void> {
  const schedule = config.backup;
  if (!schedule) return async () => {};
  let running: Promise<void> | undefined;
  const once = async () => {
    const started = Date.now();
    try {
      const { archive, manifest } = await makeBackup(source, schedule.dir);
      const pruned = await pruneBackups(schedule.dir, schedule.keep);
      log.info(
        { archive, bytes: await archiveSize(archive), files: manifest.files.length, ms: Date.now() - started, pruned },
        '定时备份完成',
      );
      if (manifest.missingFiles.length)
        log.warn({ missing: manifest.missingFiles }, '备份时数据库登记的部分文件不存在');
    } catch (error) {
      log.error({ reason: (error as Error).message }, '定时备份失败');
    }
  };
  const timer = setInterval(() => {
    running ??= once().finally(() => {
      running = undefined;
    });
  }, schedule.intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
