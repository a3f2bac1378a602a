/** Bytes as operators read them: 1.2 MB (shared with the server's operation log). */
export { formatSize } from '@appdesk/contract/format';
