import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from './helpers';

/**
 * Apps become data. The first app, 滚动截屏 (`tailor`), is registered with the package ids the
 * product shipped with and every channel: a site from before this keeps answering as it did.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  let table = pk(db.schema.createTable('apps'), dialect)
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull());
  for (const column of [
    'icon',
    'description',
    'android_package',
    'ios_bundle_id',
    'apple_app_id',
    'icp_filing',
    'alipay_app_id',
    'alipay_public_key',
    'wechat_mch_id',
    'wechat_app_id',
    'wechat_platform_public_key',
    'wechat_platform_serial',
  ]) {
    table = table.addColumn(column, 'text', (c) => c.notNull().defaultTo(''));
  }
  await table
    .addColumn('channels', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('apple_environments', 'text', (c) => c.notNull().defaultTo('Production'))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_secrets')
    .addColumn('app_id', 'integer', (c) => c.notNull().references('apps.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('set_at', ms(dialect), (c) => c.notNull())
    .addColumn('set_by', 'integer')
    .addPrimaryKeyConstraint('app_secrets_pk', ['app_id', 'kind'])
    .execute();

  // The channel list as the product knew it when this ran: every channel, default store links.
  const channels = [
    'oppo',
    'vivo',
    'huawei',
    'appstore',
    'googleplay',
    'meizu',
    '360',
    'uc',
    'lianxiang',
    'other',
    'baidu',
    'yingyongbao',
    'xiaomi',
    'wandoujia',
    '91',
    'hiMarket',
    'pp',
    'samsung',
    'jinli',
    'kupai',
    'yidong',
    'anzhi',
    'kuan',
    'zhuoyi',
  ].map((channel) => ({ channel, storeLink: '' }));
  const now = Date.now();
  await sql`
    insert into apps (code, name, enabled, android_package, ios_bundle_id, channels, created_at, updated_at)
    values ('tailor', '滚动截屏', 1, 'com.appdesk.tailor', 'com.appdesk.tailor', ${JSON.stringify(channels)}, ${now}, ${now})
  `.execute(db);
}
