import type { FileReference } from '../../storage/references';

/** Columns of this feature that hold stored files' URLs. */
export default [
  { table: 'allocation', column: 'logo' },
  { table: 'allocation', column: 'service' },
] satisfies FileReference[];
