/**
 * Where an operation-log row's object opens: its page, and the record itself where that page
 * opens one from the URL (the users drawer, an order's detail, a feedback thread).
 */
const targetPages: Record<string, { page: string; open?: (id: string) => string }> = {
  user: { page: 'users', open: (id) => `search=${id}&detail=${id}` },
  order: { page: 'order', open: (id) => `detail=${id}` },
  feedbackv2: { page: 'feedbackv2', open: (id) => `thread=${id}` },
  'feedbackv2.canned': { page: 'feedbackv2' },
  feedback: { page: 'feedback' },
  exchange_item: { page: 'exchange' },
  exchange_record: { page: 'exchangerecord' },
  a11t: { page: 'a11t' },
  allocation: { page: 'allocation' },
  file: { page: 'upload' },
  help: { page: 'help' },
  iap: { page: 'iap' },
  image: { page: 'unsplash' },
  message: { page: 'message' },
  plan: { page: 'plan' },
  review_reward: { page: 'reviewreward' },
  session: { page: 'online' },
  sound: { page: 'soundeffect' },
  version: { page: 'version' },
};

/** The console address of a log row's object, and whether it opens the record itself. */
export function targetHref(type: string, id: string | null): { href: string; opensRecord: boolean } | null {
  const target = targetPages[type];
  if (!target) return null;
  const base = `/admin/admin/${target.page}`;
  if (id && target.open && /^\d{1,10}$/.test(id)) return { href: `${base}?${target.open(id)}`, opensRecord: true };
  return { href: base, opensRecord: false };
}

/** The users page's drawer for one account. */
export const userHref = (id: number) => `/admin/admin/users?search=${id}&detail=${id}`;
