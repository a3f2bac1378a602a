import type { ApiInput, ApiOutput } from '@appdesk/contract/types';

/**
 * Which calls save the 站点配置 form: the four settings the product has always had each go through
 * their own call (title, QQ, slogan, about, in the order the API lists them), so every client and
 * the operation log see the same per-field writes; the settings added later (备案号, download
 * links, legal texts) have no call of their own and go together through the combined one. Only
 * what differs from what was loaded is sent.
 */
export type Settings = ApiOutput<'/api/allocation/fetch/settings'>['settings'];
export type SettingKey = keyof Settings;

const ownCalls = {
  title: '/api/allocation/update/title',
  qq: '/api/allocation/update/qq/account',
  slogen: '/api/allocation/update/slogen',
  about: '/api/allocation/update/about',
} as const;

type OwnPath = (typeof ownCalls)[keyof typeof ownCalls];
type SettingPath = OwnPath | '/api/allocation/update';

/** One call and what it sends. */
export type SettingCall = { [P in SettingPath]: { path: P; input: ApiInput<P> } }[SettingPath];

/** Texts whose spacing is content (paragraphs, Markdown); every other setting is trimmed. */
const keptAsTyped = new Set<SettingKey>(['about', 'agreement', 'privacy']);

/** The form's values as they are saved. */
export function cleanSettings(values: Settings): Settings {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      keptAsTyped.has(key as SettingKey) ? (value ?? '') : (value ?? '').trim(),
    ]),
  ) as Settings;
}

/** The calls that save `values` over `before`, in order; none when nothing changed. */
export function settingCalls(before: Settings | undefined, values: Settings): SettingCall[] {
  const next = cleanSettings(values);
  const changed = (key: SettingKey) => before?.[key] !== next[key];
  const calls: SettingCall[] = [];
  if (changed('title')) calls.push({ path: ownCalls.title, input: { title: next.title } });
  if (changed('qq')) calls.push({ path: ownCalls.qq, input: { qq: next.qq } });
  if (changed('slogen')) calls.push({ path: ownCalls.slogen, input: { slogen: next.slogen } });
  if (changed('about')) calls.push({ path: ownCalls.about, input: { about: next.about } });
  const rest = (Object.keys(next) as SettingKey[]).filter((key) => !(key in ownCalls) && changed(key));
  if (rest.length > 0) {
    calls.push({
      path: '/api/allocation/update',
      input: Object.fromEntries(rest.map((key) => [key, next[key]])) as ApiInput<'/api/allocation/update'>,
    });
  }
  return calls;
}
