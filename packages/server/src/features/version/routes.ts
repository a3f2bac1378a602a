import { type ChannelCode, channelDelivery, channels, versionStatuses } from '@appdesk/contract/constants';
import { sql } from 'kysely';
import { countedTotal, shanghaiTime } from '../../db/paging';
import { mustReach, mustSee, scoped } from '../../http/app-scope';
import type { SignedInContext } from '../../http/context';
import { fail } from '../../http/errors';
import { channelWord, listExport, pagedRoute, platformWord, wordsOf } from '../../http/paged';
import { defineRoutes } from '../../http/route';
import { readApk } from './apk';
import { countEvent, flushStats, forgetReleases, latestFor, resolveChannel, shanghaiDay } from './latest';
import { presentVersion, type Release } from './presenter';
import {
  appOf,
  appPackage,
  assertCodes,
  assertPublishable,
  filteredVersions,
  loadVersion,
  noPackage,
  orderedVersions,
  packageFacts,
  shipsOn,
  storeUrlFor,
} from './queries';

const unique = (error: unknown) =>
  /unique|duplicate/i.test(String((error as Error)?.message)) ? fail.conflict('这个渠道已经有相同版本号的版本') : error;

/** What the operation log keeps of a release. */
const logged = (v: Release) => v;

async function setStatus(ctx: SignedInContext, id: number, status: 'published' | 'paused' | 'rolledback') {
  const before = await loadVersion(ctx.db, id);
  await mustReach(ctx, before.app);
  if (status === 'published') assertPublishable(before);
  if (status === 'paused' && before.status !== 'published') throw fail.conflict('只有已发布的版本可以暂停');
  if (status === 'rolledback' && before.status !== 'published' && before.status !== 'paused') {
    throw fail.conflict('只有已发布或已暂停的版本可以回滚');
  }
  const now = Date.now();
  await ctx.db
    .updateTable('versions')
    .set({
      status,
      updated_at: now,
      ...(status === 'published' && before.published_at === null ? { published_at: now } : {}),
    })
    .where('id', '=', id)
    .execute();
  const after = presentVersion(await loadVersion(ctx.db, id));
  await ctx.audit({ targetId: id, before: { status: before.status }, after: { status } });
  forgetReleases(ctx.config);
  return { version: after };
}

const statusWord = wordsOf(versionStatuses);

const releaseList = pagedRoute('/api/version/fetch/page', {
  rows: (input, ctx) => orderedVersions(ctx.db, scoped(ctx, input)),
  total: (input, ctx) => countedTotal(ctx.db, filteredVersions(ctx.db, scoped(ctx, input)), input.exactTotal),
  present: (rows) => rows.map(presentVersion),
});

export default defineRoutes({
  '/api/version/make': {
    transaction: true,
    message: '版本已创建',
    handler: async (input, ctx) => {
      assertCodes(input.versionCode, input.minVersionCode);
      const app = await appOf(ctx, input.app);
      if (!shipsOn(app, input.channel)) {
        throw fail.badInput(
          `应用「${app.name}」不在「${channelWord(input.channel)}」渠道上架，请先在应用管理中添加该渠道`,
        );
      }
      const facts = input.fileId === null ? noPackage : await packageFacts(ctx, input, input.fileId);
      const packageName = facts.package_name || app.androidPackage;
      const now = Date.now();
      const values = {
        app: input.app,
        platform: input.platform,
        channel: input.channel,
        version_name: input.versionName,
        version_code: input.versionCode,
        min_version_code: input.minVersionCode,
        changelog: input.changelog,
        ...facts,
        store_url: storeUrlFor(app, input.channel, input.storeUrl, input.platform === 'android' ? packageName : ''),
        status: input.published ? ('published' as const) : ('draft' as const),
        rollout: input.rollout,
        prompt_times: input.promptTimes,
        prompt_interval_days: input.promptIntervalDays,
        ignorable: input.ignorable ? 1 : 0,
        review_hold: (input.reviewHold ?? channelDelivery[input.channel].holdDuringReview === true) ? 1 : 0,
        published_at: input.published ? now : null,
        created_by: ctx.user.id,
        created_at: now,
        updated_at: now,
      };
      if (input.published) assertPublishable(values);
      const { id } = await ctx.db
        .insertInto('versions')
        .values(values)
        .returning('id')
        .executeTakeFirstOrThrow()
        .catch((e) => {
          throw unique(e);
        });
      const version = presentVersion(await loadVersion(ctx.db, id));
      await ctx.audit({ targetId: id, after: logged(version) });
      forgetReleases(ctx.config);
      return { version };
    },
  },

  '/api/version/update': {
    transaction: true,
    message: '版本已保存',
    handler: async (input, ctx) => {
      const { id, ...changes } = input;
      const fields = Object.keys(changes).filter((k) => changes[k as keyof typeof changes] !== undefined);
      if (fields.length === 0) throw fail.badInput('请至少修改一项');
      const row = await loadVersion(ctx.db, id);
      await mustReach(ctx, row.app);
      const before = presentVersion(row);
      const versionCode = changes.versionCode ?? row.version_code;
      assertCodes(versionCode, changes.minVersionCode ?? row.min_version_code);
      let facts = {};
      if (changes.fileId !== undefined) {
        facts = changes.fileId === null ? noPackage : await packageFacts(ctx, { ...row, versionCode }, changes.fileId);
      } else if (changes.versionCode !== undefined && row.file_id !== null) {
        facts = await packageFacts(ctx, { ...row, versionCode }, row.file_id);
      }
      const set = {
        ...(changes.versionName === undefined ? {} : { version_name: changes.versionName }),
        ...(changes.versionCode === undefined ? {} : { version_code: changes.versionCode }),
        ...(changes.minVersionCode === undefined ? {} : { min_version_code: changes.minVersionCode }),
        ...(changes.changelog === undefined ? {} : { changelog: changes.changelog }),
        ...(changes.storeUrl === undefined ? {} : { store_url: changes.storeUrl }),
        ...(changes.rollout === undefined ? {} : { rollout: changes.rollout }),
        ...(changes.promptTimes === undefined ? {} : { prompt_times: changes.promptTimes }),
        ...(changes.promptIntervalDays === undefined ? {} : { prompt_interval_days: changes.promptIntervalDays }),
        ...(changes.ignorable === undefined ? {} : { ignorable: changes.ignorable ? 1 : 0 }),
        ...(changes.reviewHold === undefined ? {} : { review_hold: changes.reviewHold ? 1 : 0 }),
        ...facts,
      };
      if (row.status === 'published') assertPublishable({ ...row, ...set });
      await ctx.db
        .updateTable('versions')
        .set({ ...set, updated_at: Date.now() })
        .where('id', '=', id)
        .execute()
        .catch((e) => {
          throw unique(e);
        });
      const after = presentVersion(await loadVersion(ctx.db, id));
      const pick = (v: Release) =>
        Object.fromEntries(
          fields.map((f) => [f === 'fileId' ? 'package' : f, v[(f === 'fileId' ? 'package' : f) as keyof Release]]),
        );
      await ctx.audit({ targetId: id, before: pick(before), after: pick(after) });
      forgetReleases(ctx.config);
      return { version: after };
    },
  },

  '/api/version/publish': {
    transaction: true,
    message: '已发布',
    handler: (input, ctx) => setStatus(ctx, input.id, 'published'),
  },
  '/api/version/pause': {
    transaction: true,
    message: '已暂停，App 不再提示这个版本',
    handler: (input, ctx) => setStatus(ctx, input.id, 'paused'),
  },
  '/api/version/rollback': {
    transaction: true,
    message: '已回滚，App 改为得到上一个已发布版本',
    handler: (input, ctx) => setStatus(ctx, input.id, 'rolledback'),
  },

  '/api/version/copy': {
    transaction: true,
    message: '已复制到所选渠道（草稿）',
    handler: async (input, ctx) => {
      const source = await loadVersion(ctx.db, input.id);
      await mustReach(ctx, source.app);
      const targets = [...new Set(input.channels)].filter((c) => c !== source.channel);
      const taken = new Set(
        (
          await ctx.db
            .selectFrom('versions')
            .select('channel')
            .where('app', '=', source.app)
            .where('platform', '=', source.platform)
            .where('version_code', '=', source.version_code)
            .execute()
        ).map((r) => r.channel),
      );
      const app = await appOf(ctx, source.app);
      const created: Release[] = [];
      const skipped: string[] = [];
      const now = Date.now();
      for (const channel of targets as ChannelCode[]) {
        // A channel taken already, or one the app does not ship on, is skipped and said.
        if (taken.has(channel) || !shipsOn(app, channel)) {
          skipped.push(channel);
          continue;
        }
        const { id: _id, file_key: _k, file_name: _n, ...rest } = source;
        const packageName = source.package_name || app.androidPackage;
        const { id } = await ctx.db
          .insertInto('versions')
          .values({
            ...rest,
            channel,
            store_url: storeUrlFor(app, channel, '', source.platform === 'android' ? packageName : ''),
            status: 'draft',
            review_hold: channelDelivery[channel].holdDuringReview ? 1 : 0,
            published_at: null,
            created_by: ctx.user.id,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        created.push(presentVersion(await loadVersion(ctx.db, id)));
      }
      await ctx.audit({ targetId: source.id, after: { channels: created.map((v) => v.channel), skipped } });
      forgetReleases(ctx.config);
      return { created, skipped };
    },
  },

  '/api/version/remove': {
    transaction: true,
    message: '版本已删除',
    handler: async (input, ctx) => {
      const row = await loadVersion(ctx.db, input.id);
      await mustReach(ctx, row.app);
      const before = presentVersion(row);
      if (before.status !== 'draft') throw fail.conflict('只能删除草稿；已发布过的版本请暂停或回滚');
      await ctx.db.deleteFrom('versions').where('id', '=', input.id).execute();
      await ctx.audit({ targetId: input.id, before: logged(before) });
      forgetReleases(ctx.config);
      return null;
    },
  },

  '/api/version/fetch/page': releaseList,
  '/api/version/export': listExport(releaseList, (ctx) => ({
    filename: '版本',
    columns: [
      { header: 'ID', width: 10, cell: (r) => r.id },
      { header: '应用', width: 12, cell: (r) => ctx.apps.nameOf(r.app) },
      { header: '平台', width: 10, cell: (r) => platformWord(r.platform) },
      { header: '渠道', width: 16, cell: (r) => channelWord(r.channel) },
      { header: '版本名', width: 12, cell: (r) => r.versionName },
      { header: '版本号', width: 10, cell: (r) => r.versionCode },
      { header: '最低版本号', width: 10, cell: (r) => r.minVersionCode },
      { header: '状态', width: 10, cell: (r) => statusWord(r.status) },
      { header: '灰度比例', width: 10, cell: (r) => r.rollout },
      { header: '更新说明', width: 40, cell: (r) => r.changelog },
      { header: '发布时间', width: 18, cell: (r) => shanghaiTime(r.publishedAt) },
      { header: '创建时间', width: 18, cell: (r) => shanghaiTime(r.createdAt) },
    ],
  })),

  '/api/version/fetch/detail': {
    handler: async (input, ctx) => {
      const row = await loadVersion(ctx.db, input.id);
      mustSee(ctx, row.app, '版本不存在');
      return { version: presentVersion(row) };
    },
  },

  '/api/version/fetch/matrix': {
    handler: async (input, ctx) => {
      const rows = await ctx.db
        .selectFrom('versions')
        .select(['id', 'channel', 'version_code', 'version_name', 'status', 'rollout'])
        .where('app', '=', input.app)
        .where('platform', '=', input.platform)
        .orderBy('version_code', 'desc')
        .limit(2000)
        .execute();
      const columns: { versionCode: number; versionName: string }[] = [];
      for (const row of rows) {
        if (columns.length >= 8) break;
        if (!columns.some((c) => c.versionCode === row.version_code)) {
          columns.push({ versionCode: row.version_code, versionName: row.version_name });
        }
      }
      const shown = new Set(columns.map((c) => c.versionCode));
      return {
        columns,
        rows: channels.map((c) => ({
          channel: c.value,
          cells: rows
            .filter((r) => r.channel === c.value && shown.has(r.version_code))
            .map((r) => ({ versionCode: r.version_code, id: r.id, status: r.status, rollout: r.rollout })),
        })),
      };
    },
  },

  '/api/version/fetch/stats': {
    handler: async (input, ctx) => {
      await flushStats(ctx.db);
      const since = shanghaiDay(Date.now() - (input.days - 1) * 86_400_000);
      let query = ctx.db
        .selectFrom('version_stats')
        .innerJoin('versions', 'versions.id', 'version_stats.version_id')
        .select([
          'version_stats.day',
          'version_stats.version_id',
          'versions.version_name',
          'version_stats.channel',
          'version_stats.checks',
          'version_stats.prompts',
          'version_stats.downloads',
        ])
        .where('versions.app', '=', input.app)
        .where('version_stats.day', '>=', since);
      if (input.platform) query = query.where('versions.platform', '=', input.platform);
      if (input.channel) query = query.where('version_stats.channel', '=', input.channel);
      const rows = await query
        .orderBy('version_stats.day', 'desc')
        .orderBy(sql`version_stats.checks`, 'desc')
        .limit(5000)
        .execute();
      return {
        list: rows.map((r) => ({
          day: r.day,
          versionId: r.version_id,
          versionName: r.version_name,
          channel: r.channel,
          checks: Number(r.checks),
          prompts: Number(r.prompts),
          downloads: Number(r.downloads),
        })),
      };
    },
  },

  '/api/version/parse': {
    handler: async (input, ctx) => {
      const file = await ctx.db.selectFrom('files').selectAll().where('id', '=', input.fileId).executeTakeFirst();
      if (file?.kind !== 'package') throw fail.notFound('安装包文件不存在');
      const packageType = file.key.split('.').pop() ?? '';
      const expectedPackage = appPackage(await appOf(ctx, input.app), packageType === 'ipa' ? 'ios' : 'android');
      const info = packageType === 'apk' ? await ctx.storage.withLocalFile(file.key, readApk) : null;
      if (packageType === 'apk' && !info)
        throw fail.badInput('无法读取这个 APK 的包信息（AndroidManifest.xml），请确认安装包完整');
      return {
        packageType,
        packageName: info?.packageName ?? '',
        versionName: info?.versionName ?? '',
        versionCode: info?.versionCode ?? null,
        icon: info?.icon ?? null,
        belongsToApp: info ? info.packageName === expectedPackage : true,
        expectedPackage,
      };
    },
  },

  '/api/version/fetch/latest': {
    handler: (input, ctx) => latestFor(ctx, input),
  },

  '/api/version/report': {
    handler: async (input, ctx) => {
      const row = await ctx.db
        .selectFrom('versions')
        .select(['id', 'app'])
        .where('id', '=', input.id)
        .executeTakeFirst();
      if (!row) throw fail.notFound('版本不存在');
      await countEvent(ctx.db, input.id, resolveChannel(input.channel, await ctx.apps.get(row.app)), input.event);
      return null;
    },
  },
});
