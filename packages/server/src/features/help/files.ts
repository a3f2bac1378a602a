import type { FileReference } from '../../storage/references';

/** An article's Markdown may show an uploaded image. */
export default [{ table: 'help_articles', column: 'content', contains: true }] satisfies FileReference[];
