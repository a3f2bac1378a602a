// How a server process is started (npm start, the bench): settings that keep its resident memory
// small under load. Whoever starts packages/server/dist/main.js another way (systemd, a container)
// should pass the same; the README says so.

/** V8: young-generation semi-spaces of 4 MiB instead of up to 16 MiB (fewer megabytes held between collections). */
export const serverNodeArgs = ['--max-semi-space-size=4'];

/** glibc: two malloc arenas, not eight per core; SQLite's worker threads otherwise each keep freed memory in their own. */
export const serverEnv = { MALLOC_ARENA_MAX: '2' };
