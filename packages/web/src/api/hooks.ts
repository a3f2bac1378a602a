import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { callOk } from './request';

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

export interface ActionOptions<P extends ApiPath> {
  /** The success notification (spec: 1.5 s in the admin layout), from the answer if a function. */
  success?: string | ((output: ApiOutput<P>) => { title: string; description?: string });
  /**
   * Path prefixes whose queries are refetched after success; by default the endpoint's own domain
   * (a write to /api/users/… refreshes every /api/users/… list, count and detail).
   */
  refreshes?: string[];
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
    mutationFn: (input: ApiInput<P>) => callOk(path, input, { action: true }),
    onSuccess: async (output) => {
      const { success } = options;
      if (success) notification.success(typeof success === 'string' ? { title: success } : success(output));
      await queryClient.invalidateQueries({
        predicate: (query) =>
          typeof query.queryKey[0] === 'string' && refreshes.some((p) => (query.queryKey[0] as string).startsWith(p)),
      });
    },
  });
}
