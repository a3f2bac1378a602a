import type { ArgsProps, NotificationInstance } from 'antd/es/notification/interface';

/**
 * Notification bridge. Layouts that render antd's <App> bind their context-aware instance; before
 * that (or on the antd-free home page) the static API is loaded on demand, so the request client
 * never pulls antd into a bundle by itself.
 */
type Api = Pick<NotificationInstance, 'error' | 'success'>;

let bound: Api | null = null;
let staticApi: Promise<Api> | null = null;

/** Widget defaults (spec section 9): 4.5 s, 24 px from the top, top right. */
export const notificationDefaults = { duration: 4.5, top: 24, placement: 'topRight' } as const;

export function bindNotification(api: Api): () => void {
  bound = api;
  return () => {
    if (bound === api) bound = null;
  };
}

function loadStatic(): Promise<Api> {
  staticApi ??= import('antd/es/notification').then(({ default: notification }) => {
    notification.config(notificationDefaults);
    return notification;
  });
  return staticApi;
}

/**
 * Errors stay until the operator closes them (a failed action's reason must not vanish while they
 * read it); the same error again replaces the one shown instead of stacking. Success notices keep
 * the layout's duration (1.5 s in the admin console).
 */
export function errorArgs(args: ArgsProps): ArgsProps {
  const text = `${String(args.title ?? '')}\u0000${typeof args.description === 'string' ? args.description : ''}`;
  return { duration: false, key: `error:${text}`, ...args };
}

export async function notify(kind: 'error' | 'success', args: ArgsProps): Promise<void> {
  try {
    const api = bound ?? (await loadStatic());
    api[kind](kind === 'error' ? errorArgs(args) : args);
  } catch {
    // The notification chunk could not load (offline): nothing more useful to do.
  }
}
