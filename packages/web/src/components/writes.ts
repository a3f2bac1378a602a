import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';
import { ApiError, callSucceeded, HttpError } from '../api/request';

/**
 * Helpers for writes that `useApiAction` does not cover: a confirmation that waits for an action,
 * and the few writes whose success notice is the server's own message (docs/spec-notes.md#8-answers-notices-and-the-session) or that
 * run outside the admin layout's query client (login, first-run setup).
 */

/** Whether the request client has already shown this failure (a coded answer, an HTTP or network failure). */
export function shownByClient(error: unknown): boolean {
  return error instanceof ApiError || error instanceof HttpError;
}

/**
 * Runs an action (its `mutate`) and resolves once it has settled, failed or not, so a Popconfirm keeps its OK
 * button loading until then and closes afterwards (a failure has already been notified).
 */
export function untilSettled<I>(
  mutate: (input: I, options: { onSettled: () => void }) => void,
  input: I,
): Promise<void> {
  return new Promise((resolve) => mutate(input, { onSettled: () => resolve() }));
}

/** A successful answer with the server's message, which some success notices show. */
export interface Sent<P extends ApiPath> {
  data: ApiOutput<P>;
  message: string;
}

/**
 * A write whose answer message matters: the output and the message on code 200, null when the
 * request client has already shown why not. Anything else (a bug) is rethrown.
 */
export async function send<P extends ApiPath>(path: P, input: ApiInput<P>): Promise<Sent<P> | null> {
  try {
    return await callSucceeded(path, input, { action: true });
  } catch (error) {
    if (shownByClient(error)) return null;
    throw error;
  }
}
