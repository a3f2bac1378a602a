import { DEFAULT_APP } from '@appdesk/contract/constants';
import type { AppSecretKind } from '@appdesk/contract/rules/apps';
import type { Config } from '../config';
import type { Db } from '../db/index';
import { type GooglePlayConfig, type PaymentsConfig, publicKeyPem } from '../payments-config';
import { openSecret } from './secret-box';

/** One app as the server uses it: its settings, and its secrets still sealed. */
export interface AppRecord {
  id: number;
  code: string;
  name: string;
  icon: string;
  description: string;
  enabled: boolean;
  isDefault: boolean;
  androidPackage: string;
  iosBundleId: string;
  appleAppId: string;
  channels: { channel: string; storeLink: string }[];
  icpFiling: string;
  appleEnvironments: ('Production' | 'Sandbox')[];
  alipayAppId: string;
  alipayPublicKey: string;
  wechatMchId: string;
  wechatAppId: string;
  wechatPlatformPublicKey: string;
  wechatPlatformSerial: string;
  secrets: Partial<Record<AppSecretKind, { sealed: string; setAt: number; setBy: number | null }>>;
  createdAt: number;
  updatedAt: number;
}

/** How long a loaded list of apps serves calls before it is read again (a change on another instance shows within it). */
export const APPS_FRESH_MS = 3_000;

/** Where a secret is bound: a sealed value copied to another app or kind does not open. */
export const secretContext = (appId: number, kind: string) => `app:${appId}:${kind}`;

/**
 * The apps, read once per APPS_FRESH_MS and at once after a change on this instance: every app call
 * names its app, and looking it up must cost nothing a user can see. One registry per server (tests
 * run several servers on several databases in one process).
 */
export class AppRegistry {
  private snapshot: { at: number; list: AppRecord[]; byCode: Map<string, AppRecord> } | undefined;
  private loading: Promise<AppRecord[]> | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: Pick<Config, 'payments' | 'secretKeys'>,
  ) {}

  /** Every app, enabled or not, in the order they were registered. */
  async all(): Promise<AppRecord[]> {
    if (this.snapshot && Date.now() - this.snapshot.at < APPS_FRESH_MS) return this.snapshot.list;
    this.loading ??= this.load().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  async get(code: string): Promise<AppRecord | undefined> {
    await this.all();
    return this.snapshot?.byCode.get(code);
  }

  /** The app's name for a cell or a log line (its code while the apps were never read, or for a code no app has). */
  nameOf(code: string | null | undefined): string {
    if (!code) return '';
    return this.snapshot?.byCode.get(code)?.name ?? code;
  }

  /** Called after a change commits: the next lookup reads the apps again. */
  changed(): void {
    this.snapshot = undefined;
  }

  /** Whether secrets can be set in the console: the server holds a key to seal them with. */
  get secretsWritable(): boolean {
    return this.config.secretKeys !== undefined;
  }

  /**
   * The store and payment settings an app's purchases and notifications are verified with. The
   * default app takes a platform from the environment where the environment sets it (an existing
   * deployment keeps its variables); every app otherwise from its console settings.
   */
  payments(app: AppRecord): PaymentsConfig {
    // Built once per loaded app (a reload makes new records): a purchase call does not decrypt
    // secrets and parse keys again.
    let built = this.built.get(app);
    if (!built) {
      built = this.buildPayments(app);
      this.built.set(app, built);
    }
    return built;
  }

  private readonly built = new WeakMap<AppRecord, PaymentsConfig>();

  private buildPayments(app: AppRecord): PaymentsConfig {
    const env = app.isDefault ? this.config.payments : undefined;
    return {
      apple: env?.apple ?? this.apple(app),
      alipay:
        env?.alipay ??
        (app.alipayAppId && app.alipayPublicKey
          ? { appId: app.alipayAppId, publicKey: publicKeyPem(app.alipayPublicKey) }
          : null),
      wechat: env?.wechat ?? this.wechat(app),
      google: env?.google ?? this.google(app),
    };
  }

  /** Which platforms of the app come from the environment (the default app only). */
  fromEnvironment(app: AppRecord) {
    const env = app.isDefault ? this.config.payments : undefined;
    return {
      apple: Boolean(env?.apple),
      google: Boolean(env?.google),
      alipay: Boolean(env?.alipay),
      wechat: Boolean(env?.wechat),
    };
  }

  /** A secret's plain value, or undefined when unset or no key opens it (the platform is then off). */
  secret(app: AppRecord, kind: AppSecretKind): string | undefined {
    const stored = app.secrets[kind];
    if (!stored || !this.config.secretKeys) return undefined;
    try {
      return openSecret(this.config.secretKeys, stored.sealed, secretContext(app.id, kind));
    } catch {
      return undefined;
    }
  }

  private apple(app: AppRecord): PaymentsConfig['apple'] {
    const roots = this.config.payments.appleRootCertificates ?? [];
    const appAppleId = app.appleAppId ? Number(app.appleAppId) : undefined;
    if (!app.iosBundleId || roots.length === 0) return null;
    // Production purchases are checked against the app's Apple ID: without it only Sandbox is accepted.
    const environments = app.appleEnvironments.filter((e) => e === 'Sandbox' || appAppleId !== undefined);
    if (environments.length === 0) return null;
    return { bundleId: app.iosBundleId, appAppleId, environments, rootCertificates: roots };
  }

  private wechat(app: AppRecord): PaymentsConfig['wechat'] {
    const apiV3Key = this.secret(app, 'wechatApiV3Key');
    if (!app.wechatMchId || !apiV3Key || !app.wechatPlatformPublicKey) return null;
    return {
      mchId: app.wechatMchId,
      apiV3Key,
      platformPublicKey: publicKeyPem(app.wechatPlatformPublicKey),
      platformSerial: app.wechatPlatformSerial || undefined,
    };
  }

  private google(app: AppRecord): GooglePlayConfig | null {
    const key = this.secret(app, 'googleServiceAccount');
    if (!key) return null;
    const parsed = JSON.parse(key) as { client_email: string; private_key: string; token_uri?: string };
    return {
      clientEmail: parsed.client_email,
      privateKey: parsed.private_key,
      apiUrl: this.config.payments.googlePlayApiUrl,
      tokenUrl: this.config.payments.googlePlayTokenUrl ?? parsed.token_uri,
    };
  }

  private async load(): Promise<AppRecord[]> {
    const at = Date.now();
    const list = await readApps(this.db);
    this.snapshot = { at, list, byCode: new Map(list.map((a) => [a.code, a])) };
    return list;
  }
}

/** Every app as stored now, with its sealed secrets (a company has a handful: read whole). */
export async function readApps(db: Db): Promise<AppRecord[]> {
  const [rows, secrets] = await Promise.all([
    db.selectFrom('apps').selectAll().orderBy('id').execute(),
    db.selectFrom('app_secrets').selectAll().execute(),
  ]);
  return rows.map(
    (r): AppRecord => ({
      id: r.id,
      code: r.code,
      name: r.name,
      icon: r.icon,
      description: r.description,
      enabled: r.enabled === 1,
      isDefault: r.code === DEFAULT_APP,
      androidPackage: r.android_package,
      iosBundleId: r.ios_bundle_id,
      appleAppId: r.apple_app_id,
      channels: JSON.parse(r.channels),
      icpFiling: r.icp_filing,
      appleEnvironments: r.apple_environments.split(',').filter(Boolean) as AppRecord['appleEnvironments'],
      alipayAppId: r.alipay_app_id,
      alipayPublicKey: r.alipay_public_key,
      wechatMchId: r.wechat_mch_id,
      wechatAppId: r.wechat_app_id,
      wechatPlatformPublicKey: r.wechat_platform_public_key,
      wechatPlatformSerial: r.wechat_platform_serial,
      secrets: Object.fromEntries(
        secrets
          .filter((s) => s.app_id === r.id)
          .map((s) => [s.kind, { sealed: s.sealed, setAt: Number(s.set_at), setBy: s.set_by }]),
      ),
      createdAt: Number(r.created_at),
      updatedAt: Number(r.updated_at),
    }),
  );
}
