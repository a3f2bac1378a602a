import { type ChannelCode, channelDelivery } from '@appdesk/contract/constants';
import type { versionEndpoints } from '@appdesk/contract/endpoints/version';
import type { z } from 'zod';
import type { AppRecord } from '../../core/apps';
import type { Db } from '../../db/index';
import { containsText } from '../../db/paging';
import { type AppScope, inScope } from '../../http/app-scope';
import type { RequestContext } from '../../http/context';
import { fail } from '../../http/errors';
import { md5Of, readApk } from './apk';
import type { VersionRow } from './presenter';
import type { VersionsTable } from './tables';

type PageFilter = z.output<(typeof versionEndpoints)['/api/version/fetch/page']['input']>;
const sortColumn = {
  versionCode: 'versions.version_code',
  updatedAt: 'versions.updated_at',
  publishedAt: 'versions.published_at',
} as const;

type Filter = Omit<PageFilter, 'page' | 'size' | 'sort' | 'order' | 'exactTotal' | 'app'> & { apps: AppScope };

export function filteredVersions(db: Db, filter: Filter) {
  let query = db.selectFrom('versions');
  if (filter.apps) query = query.where(inScope('versions.app', filter.apps));
  if (filter.platform) query = query.where('versions.platform', '=', filter.platform);
  if (filter.channel) query = query.where('versions.channel', '=', filter.channel);
  if (filter.status) query = query.where('versions.status', '=', filter.status);
  if (filter.search) query = query.where(containsText(['versions.version_name'], filter.search));
  return query;
}

/** Rows with their package file's key and name, for the presenter. */
export function withFile(db: Db) {
  return db
    .selectFrom('versions')
    .leftJoin('files', 'files.id', 'versions.file_id')
    .selectAll('versions')
    .select(['files.key as file_key', 'files.name as file_name']);
}

export function orderedVersions(db: Db, filter: Filter & Pick<PageFilter, 'sort' | 'order'>) {
  const direction = filter.order === 'ascend' ? 'asc' : 'desc';
  let query = withFile(db);
  if (filter.apps) query = query.where(inScope('versions.app', filter.apps));
  if (filter.platform) query = query.where('versions.platform', '=', filter.platform);
  if (filter.channel) query = query.where('versions.channel', '=', filter.channel);
  if (filter.status) query = query.where('versions.status', '=', filter.status);
  if (filter.search) query = query.where(containsText(['versions.version_name'], filter.search));
  return query.orderBy(sortColumn[filter.sort], direction).orderBy('versions.id', direction);
}

export async function loadVersion(db: Db, id: number): Promise<VersionRow> {
  const row = await withFile(db).where('versions.id', '=', id).executeTakeFirst();
  if (!row) throw fail.notFound('版本不存在');
  return row;
}

/** What a package file contributes to a release: its size, hashes and (for an APK) package name. */
export interface PackageFacts {
  file_id: number | null;
  package_name: string;
  size: number;
  md5: string;
  sha256: string;
}

export const noPackage: PackageFacts = { file_id: null, package_name: '', size: 0, md5: '', sha256: '' };

/**
 * Checks a stored package for a release: it must be a package of the release's platform (APK or
 * AAB for Android, IPA for iOS); an APK is read and must carry the app's package name and the
 * version code entered.
 */
export async function packageFacts(
  ctx: RequestContext,
  release: { app: string; platform: string; versionCode: number },
  fileId: number,
): Promise<PackageFacts> {
  const file = await ctx.db.selectFrom('files').selectAll().where('id', '=', fileId).executeTakeFirst();
  if (!file) throw fail.notFound('安装包文件不存在，请重新上传');
  const type = file.key.split('.').pop();
  const fits = release.platform === 'ios' ? type === 'ipa' : type === 'apk' || type === 'aab';
  if (file.kind !== 'package' || !fits) {
    throw fail.badInput(
      release.platform === 'ios' ? 'iOS 版本只能使用 IPA 安装包' : 'Android 版本只能使用 APK 或 AAB 安装包',
    );
  }
  const expected = appPackage(await appOf(ctx, release.app), release.platform);
  let packageName = '';
  if (type === 'apk') {
    const info = await ctx.storage.withLocalFile(file.key, readApk);
    if (!info) throw fail.badInput('无法读取这个 APK 的包信息（AndroidManifest.xml），请确认安装包完整');
    if (info.packageName !== expected) {
      throw fail.badInput(`安装包的包名 ${info.packageName} 不属于这个应用（应为 ${expected}）`);
    }
    if (info.versionCode !== null && info.versionCode !== release.versionCode) {
      throw fail.badInput(`安装包的版本号是 ${info.versionCode}，与填写的版本号 ${release.versionCode} 不一致`);
    }
    packageName = info.packageName;
  }
  return {
    file_id: file.id,
    package_name: packageName || expected,
    size: Number(file.size),
    md5: await ctx.storage.withLocalFile(file.key, md5Of),
    sha256: file.sha256,
  };
}

/** The store link a release uses: the one entered, or the channel's own for the app's package. */
export function storeUrlFor(app: AppRecord, channel: string, entered: string, packageName: string): string {
  if (entered) return entered;
  const delivery = channelDelivery[channel as ChannelCode];
  return delivery?.delivery === 'store' ? appStoreLink(app, channel as ChannelCode, packageName) : '';
}

/** A release's app (the route's app check has refused a code no app has). */
export async function appOf(ctx: Pick<RequestContext, 'apps'>, code: string): Promise<AppRecord> {
  const app = await ctx.apps.get(code);
  if (!app) throw fail.badInput(`未知的应用：${code}`);
  return app;
}

/** The package id a store knows the app by on a platform: an uploaded package must carry it. */
export const appPackage = (app: AppRecord, platform: string) =>
  platform === 'ios' ? app.iosBundleId : app.androidPackage;

/** Whether the app ships on a channel (应用管理's channel list). */
export const shipsOn = (app: AppRecord, channel: string) => app.channels.some((c) => c.channel === channel);

/**
 * The app's store link on a channel: the one its 应用管理 entry sets, else the channel's template
 * filled with the Android package (or the app's Apple ID); empty where the operator must paste one.
 */
export function appStoreLink(app: AppRecord, channel: ChannelCode, packageName: string): string {
  const own = app.channels.find((c) => c.channel === channel)?.storeLink;
  if (own) return own;
  const template = channelDelivery[channel].storeLink;
  if (!template) return '';
  if (template.includes('{appleId}')) return app.appleAppId ? template.replace('{appleId}', app.appleAppId) : '';
  return template.replace('{package}', packageName);
}

/** A release can be published when an app has something to open: a store link, or (direct) a package. */
export function assertPublishable(
  row: Pick<VersionsTable, 'channel' | 'store_url' | 'file_id' | 'min_version_code' | 'version_code'>,
) {
  const direct = channelDelivery[row.channel as ChannelCode]?.delivery === 'direct';
  if (direct && row.file_id === null) throw fail.badInput('官网渠道直接下载安装包，发布前请先上传安装包');
  if (!direct && !row.store_url && row.file_id === null) throw fail.badInput('发布前请填写商店链接或上传安装包');
}

export function assertCodes(versionCode: number, minVersionCode: number) {
  if (minVersionCode > versionCode) throw fail.badInput('最低支持版本号不能大于版本号');
}
