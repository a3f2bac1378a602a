import { Code, codeMessage } from '@appdesk/contract/codes';
import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { callOk, callSucceeded } from './request';

/**
 * The one way pages talk to the API: reads through `useApiQuery`, writes through `useApiAction`.
 * Both throw for every code but 200 after the request client has shown the error notification (docs/spec-notes.md#8-answers-notices-and-the-session)
 * once, so a page never checks codes or catches errors itself.
 */

/**
 * A read, cached under [path, input] and refetched when input changes; `keepPrevious` shows the
 * last answer meanwhile (a live preview that should not flicker).
 */
export function useApiQuery<P extends ApiPath>(
  path: P,
  input: ApiInput<P>,
  options: { enabled?: boolean; keepPrevious?: boolean } = {},
) {
  return useQuery({
    queryKey: [path, input],
    queryFn: ({ signal }) => callOk(path, input, { signal }),
    enabled: options.enabled,
    placeholderData: options.keepPrevious ? keepPreviousData : undefined,
  });
}

type Notice = { title: string; description?: string };
type Success<O> = false | string | ((output: O) => Notice);

export interface ActionOptions<P extends ApiPath> {
  /**
   * The success notification (spec: 1.5 s in the admin layout). By default the server's message
   * (its route's `message`); a string or a function of the answer says something else, false
   * says nothing.
   */
  success?: Success<ApiOutput<P>>;
  /**
   * Path prefixes whose queries are refetched after success; by default the endpoint's own domain
   * (a write to /api/users/… refreshes every /api/users/… list, count and detail).
   */
  refreshes?: string[];
}

/**
 * What a successful write shows: the page's own words, else the server's message; nothing when the
 * page says false or the server said only the generic 成功 (a read run as an action).
 */
export function successNotice<O>(success: Success<O> | undefined, output: O, serverMessage: string): Notice | null {
  if (success === false) return null;
  if (typeof success === 'string') return { title: success };
  if (typeof success === 'function') return success(output);
  return serverMessage && serverMessage !== codeMessage[Code.OK] ? { title: serverMessage } : null;
}

/**
 * A write. `action.mutate(input, { onSuccess })` runs it: on success it notifies and refreshes the
 * affected queries; on failure the notification has already been shown and `onSuccess` never runs.
 */
export function useApiAction<P extends ApiPath>(path: P, options: ActionOptions<P> = {}) {
  const { notification } = App.useApp();
  const queryClient = useQueryClient();
  const refreshes = options.refreshes ?? [`/api/${path.split('/')[2]}/`];
  return useMutation({
    mutationFn: async (input: ApiInput<P>) => {
      const { data, message } = await callSucceeded(path, input, { action: true });
      const notice = successNotice(options.success, data, message);
      if (notice) notification.success(notice);
      return data;
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({
        predicate: (query) =>
          typeof query.queryKey[0] === 'string' && refreshes.some((p) => (query.queryKey[0] as string).startsWith(p)),
      });
    },
  });
}
