import type { FileReference } from '../../storage/references';

/** The original is a `files` row; its thumbnail is kept only here, as a bare key. */
export default [{ table: 'images', column: 'thumb_key', key: true }] satisfies FileReference[];
