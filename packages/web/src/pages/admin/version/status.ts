/** The tag colour of each release state. */
export const statusColor: Record<string, string> = {
  published: 'green',
  draft: 'default',
  paused: 'orange',
  rolledback: 'red',
};
