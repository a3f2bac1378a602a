import type { FileReference } from '../../storage/references';

/** Columns of this feature that hold stored files' URLs. */
export default [{ table: 'users', column: 'avatar' }] satisfies FileReference[];
