import type { FileReference } from '../../storage/references';

/** An exchange item's picture. */
export default [{ table: 'exchange_items', column: 'image' }] satisfies FileReference[];
