import type { FileReference } from '../../storage/references';

/** A promoted app's icon. */
export default [{ table: 'selfapps', column: 'icon' }] satisfies FileReference[];
