import { expect } from 'vitest';
import type { Answer } from './harness';

/** No server fault, and no stack trace, SQL or file path ever reaches a client. */
export function expectClean(answer: Answer) {
  expect(answer.status).toBeLessThan(500);
  expect(answer.body.code).not.toBe(500);
  expect(answer.text).not.toMatch(
    /\bat .+:\d+:\d+|node_modules|\/work\/|\/tmp\/|select .* from|sqlite|postgres|Error:/i,
  );
}
