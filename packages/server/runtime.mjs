// How a server process is started (npm start, the bench): settings that keep its resident memory
// small under load. Whoever starts packages/server/dist/main.js another way (systemd, a container)
// should pass the same; the README says so.

/**
 * V8: young-generation semi-spaces of 4 MiB instead of up to 16 MiB (fewer megabytes held between
 * collections); and the old generation collected once it has grown by half over what was live
 * after the last collection, instead of V8's own factor of up to 4 for a fast-allocating process,
 * which let a server with about 45 MB live hold 108 MB of heap under list load (226 MB resident
 * against 170 MB with this; no heap limit is set, so nothing can run out of memory because of it).
 */
export const serverNodeArgs = ['--max-semi-space-size=4', '--heap-growing-percent=50'];

/** glibc: two malloc arenas, not eight per core; SQLite's worker threads otherwise each keep freed memory in their own. */
export const serverEnv = { MALLOC_ARENA_MAX: '2' };
