// How a server process is started (npm start, the bench): settings that keep its resident memory
// small under load. Whoever starts packages/server/dist/main.js another way (systemd, a container)
// should pass the same (docs/operations.md#running-the-server).

/**
 * V8: young-generation semi-spaces of 4 MiB instead of up to 16 MiB (fewer megabytes held between
 * collections); and the old generation collected once it has grown by half over what was live
 * after the last collection, instead of V8's own factor of up to 4 for a fast-allocating process,
 * which let a server with about 45 MB live hold 108 MB of heap under list load (226 MB resident
 * against 170 MB with this; no heap limit is set, so nothing can run out of memory because of it).
 */
export const serverNodeArgs = ['--max-semi-space-size=4', '--heap-growing-percent=50'];

/**
 * The flags for a server on `databaseUrl` (unset or empty: SQLite). On PostgreSQL the young
 * generation keeps V8's own 16 MiB semi-spaces: the pg driver makes buffers and strings of every
 * row it reads, and with 4 MiB the scavenges cost a users-page call 55 µs of the main thread
 * against 22 on SQLite. With 16, on 1M users (2026-11-24), the page calls ran 5–10 % more per
 * second at 168 MB resident against 136; SQLite keeps 4 for its memory budget.
 */
export function serverNodeArgsFor(databaseUrl) {
  return databaseUrl ? ['--max-semi-space-size=16', '--heap-growing-percent=50'] : serverNodeArgs;
}

/**
 * glibc: two malloc arenas, not eight per core (SQLite's worker threads otherwise each keep freed
 * memory in their own); blocks of 128 KiB or more (a search's sorter, a page of rows) mapped
 * apart and handed back when freed, and free memory at the top of the heap returned past 128 KiB
 * instead of glibc's adaptive thresholds, which grow up to 32 MiB after large frees. Measured on
 * 1M users under list and search load: 15–21 MB less resident (users page 0 166 → 150 MB, after
 * the searches 198 → 177 MB) at the same latency and CPU per call.
 */
export const serverEnv = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };
