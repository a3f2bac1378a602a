import type { ArgsProps, NotificationInstance } from 'antd/es/notification/interface';

/**
 * Notification bridge. Layouts that render antd's <App> bind their context-aware instance; before
 * that (or on the antd-free home page) the static API is loaded on demand, so the request client
 * never pulls antd into a bundle by itself.
 */
type Api = Pick<NotificationInstance, 'error' | 'success'>;

type StaticApi = Api & { destroy: () => void };

let bound: Api | null = null;
let staticApi: Promise<StaticApi> | null = null;
/** A success notice for the console to show once it is there (see `notifyInConsole`). */
let handedOver: ArgsProps | null = null;

/** Widget defaults (docs/spec-notes.md#9-presentation-and-timings): 4.5 s, 24 px from the top, top right. */
export const notificationDefaults = { duration: 4.5, top: 24, placement: 'topRight' } as const;

/**
 * The console's instance takes over. What the page before it (sign-in, first-run setup) showed
 * through the static API belongs to that page: it would otherwise stay above the console's header
 * for seconds, so it ends here; a notice that page handed over is shown instead.
 */
export function bindNotification(api: Api): () => void {
  bound = api;
  void staticApi?.then((notification) => notification.destroy());
  if (handedOver) {
    api.success(handedOver);
    handedOver = null;
  }
  return () => {
    if (bound === api) bound = null;
  };
}

function loadStatic(): Promise<StaticApi> {
  staticApi ??= import('../components/staticNotification').then(({ default: notification }) => {
    notification.config(notificationDefaults);
    return notification;
  });
  return staticApi;
}

/** A success notice for a page that is about to open the console (signed in): shown by the console. */
export function notifyInConsole(args: ArgsProps): void {
  if (bound) bound.success(args);
  else handedOver = args;
}

/**
 * How long a refused action's reason stays (seconds): the widget's default, 4.5 s, also in the
 * console whose notices close after 1.5 s. The operator must read why their save, upload or sign-in
 * did not happen to correct it; any other error (a page's read) closes with the layout's notices.
 */
export const actionErrorSeconds = notificationDefaults.duration;

export interface NotifyOptions {
  /** The error answers the operator's own action (a write): it stays `actionErrorSeconds`. */
  action?: boolean;
}

/**
 * An error closes like every notice of its layout (spec: 1.5 s in the console, 4.5 s elsewhere),
 * a refused action's after `actionErrorSeconds`; the same error again replaces the one shown
 * instead of stacking.
 */
export function errorArgs(args: ArgsProps, options: NotifyOptions = {}): ArgsProps {
  const text = `${String(args.title ?? '')}\u0000${typeof args.description === 'string' ? args.description : ''}`;
  // No `duration` key otherwise: an explicit undefined would override the layout's default.
  return { key: `error:${text}`, ...(options.action ? { duration: actionErrorSeconds } : {}), ...args };
}

export async function notify(kind: 'error' | 'success', args: ArgsProps, options: NotifyOptions = {}): Promise<void> {
  try {
    const api = bound ?? (await loadStatic());
    api[kind](kind === 'error' ? errorArgs(args, options) : args);
  } catch {
    // The notification chunk could not load (offline): nothing more useful to do.
  }
}
