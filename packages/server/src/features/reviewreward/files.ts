import type { FileReference } from '../../storage/references';

/** A claim's review screenshot. */
export default [{ table: 'review_rewards', column: 'screenshot' }] satisfies FileReference[];
