/**
 * Columns the users feature adds to the core `users` table (db/schema.ts).
 * `blocked_until`: when a timed block ends (epoch ms); null for a block without end, or no block.
 * A due block is lifted where it is read (liftDueBlocks in blocks.ts), so no timer is needed.
 */
declare module '../../db/schema' {
  interface UsersTable {
    blocked_until: number | null;
  }
}

export {};
