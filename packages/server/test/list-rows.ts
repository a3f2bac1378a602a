import type { Db } from '../src/db/index';
import { insertPhysicalItem } from './rows';

/**
 * Rows for every admin list that export-order.test.ts does not seed through its own writes: seven
 * per list, the i-th with sort value `v` (out of id order, with ties, so the id must decide), each
 * sort column of the list taking it. Written straight into the tables: what is checked is the
 * order a list and its export read them in, not how they are made.
 */
export async function seedListRows(db: Db, spread: readonly number[], users: number[], now: number) {
  const DAY = 86_400_000;
  const at = (v: number) => now - v * DAY;
  const files: number[] = [];
  for (const [i, v] of spread.entries()) {
    const user_id = users[i];
    const file = await db
      .insertInto('files')
      .values({
        key: `2026-11/order${now}${i}.mp3`,
        name: `顺序${i}.mp3`,
        mime: i % 2 ? 'audio/mpeg' : 'image/png',
        size: 100 + v,
        sha256: `${i}`.padStart(64, '0'),
        kind: i % 2 ? 'audio' : 'image',
        uploader_id: user_id,
        claim_sha256: null,
        created_at: at(v),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    files.push(file.id);
    const stamps = { created_at: at(v), updated_at: at(v) };
    await db
      .insertInto('key_values')
      .values({ app: 'tailor', key: `order_${v}_${i}`, value: `${v}`, description: '顺序', ...stamps })
      .execute();
    await db
      .insertInto('client_error_groups')
      .values({
        digest: `order${now}${i}`,
        message: `顺序错误 ${i}`,
        release: '1.0.0',
        frame: 'app.js:1',
        kind: 'error',
        count: v,
        first_seen_at: at(v),
        last_seen_at: at(spread[spread.length - 1 - i]),
        last_path: '/',
        resolved_at: null,
        resolved_by: null,
      })
      .execute();
    const device = { app_version: '1.0.0', device_model: 'Pixel', os_version: '14' };
    await db
      .insertInto('feedback')
      .values({
        app: 'tailor',
        user_id,
        content: `顺序反馈 ${i}`,
        contact: '',
        channel: 'huawei',
        device_id: `d${i}`,
        status: 'pending',
        reply: null,
        replied_at: null,
        handled_by: null,
        handled_at: null,
        ...device,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('feedback_threads')
      .values({
        app: 'tailor',
        user_id,
        category: 'bug',
        status: 'open',
        subject: `顺序工单 ${i}`,
        assignee_id: null,
        last_post_at: at(spread[spread.length - 1 - i]),
        last_user_post_id: 0,
        user_read_post_id: 0,
        admin_read_post_id: 0,
        ...device,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('help_articles')
      .values({
        app: 'tailor',
        title: `顺序文章 ${i}`,
        category: '顺序',
        sort: v,
        published: i % 2,
        content: '正文',
        html: '<p>正文</p>',
        author_id: null,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('iap_products')
      .values({
        app: 'tailor',
        platform: 'ios',
        product_id: `order.${now}.${i}`,
        type: 'consumable',
        name: `顺序商品 ${i}`,
        price: 100 + v,
        vip_days: 0,
        coins: 10,
        enabled: 1,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('iap_records')
      .values({
        user_id,
        app: 'tailor',
        platform: 'ios',
        product_id: `order.${now}.${i}`,
        transaction_id: `T${now}${i}`,
        claimed_transaction_id: null,
        original_transaction_id: null,
        app_account_token: null,
        environment: 'Sandbox',
        status: 'granted',
        reason: null,
        vip_days: 0,
        coins: 10,
        purchased_at: at(v),
        expires_at: null,
        refunded_at: null,
        payload: null,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('messages')
      .values({
        app: 'tailor',
        title: `顺序消息 ${i}`,
        content: '内容',
        user_id,
        blocked: 0,
        author_id: null,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('payment_notifications')
      .values({
        method: 'alipay',
        order_no: `EXP${now}${i}`,
        transaction_id: `P${now}${i}`,
        amount: 100 + v,
        status: 'applied',
        reason: null,
        payload: null,
        created_at: at(v),
      })
      .execute();
    await db
      .insertInto('review_rewards')
      .values({
        user_id,
        app: 'tailor',
        store: 'huawei',
        screenshot: '/files/x.png',
        status: 'pending',
        coins: 0,
        reason: null,
        reviewer_id: null,
        reviewed_at: null,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('selfapps')
      .values({
        name: `顺序应用 ${i}`,
        icon: '',
        description: '',
        package_id: `com.order.a${i}`,
        android_url: '',
        ios_url: '',
        reward_coins: v,
        sort: v,
        enabled: 1,
        apps: ',tailor,',
        ...stamps,
      })
      .execute();
    // The columns left out have their defaults (empty settings): an app registered with a code and a name.
    await db
      .insertInto('apps')
      .values({ code: `order${now % 100000}x${i}`, name: `顺序应用${i}`, enabled: 1, ...stamps } as never)
      .execute();
    const media = { file_id: file.id, file_key: `2026-11/order${now}${i}.mp3`, sha256: `${i}`.padStart(64, '0') };
    await db
      .insertInto('sound_effects')
      .values({
        ...media,
        name: `顺序音效 ${i}`,
        category: '顺序',
        duration_ms: 1000 * v,
        codec: 'MPEG 1 Layer 3',
        sample_rate: 44100,
        mime: 'audio/mpeg',
        size: 100 + v,
        sort: v,
        enabled: 1,
        uploader_id: null,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('images')
      .values({
        ...media,
        thumb_key: media.file_key,
        name: `顺序图片 ${i}`,
        width: 10,
        height: 10,
        size: 100 + v,
        mime: 'image/png',
        category: '顺序',
        tags: '',
        author: '',
        source_url: '',
        sort: v,
        enabled: 1,
        uploader_id: null,
        ...stamps,
      })
      .execute();
    await db
      .insertInto('versions')
      .values({
        app: 'tailor',
        platform: 'android',
        channel: 'huawei',
        version_name: `9.${v}.${i}`,
        version_code: 9000 + v * 10 + i, // unique per channel: no ties
        min_version_code: 0,
        changelog: '顺序',
        file_id: null,
        package_name: '',
        size: 0,
        md5: '',
        sha256: '',
        store_url: '',
        status: 'draft',
        rollout: 100,
        prompt_times: 0,
        prompt_interval_days: 0,
        ignorable: 1,
        review_hold: 0,
        published_at: i % 3 === 0 ? null : at(v),
        created_by: null,
        ...stamps,
      })
      .execute();
    const item = await insertPhysicalItem(db, `顺序商品 ${i}`, at(v));
    await db
      .updateTable('exchange_items')
      .set({ sort: v, cost_coins: 10 + v })
      .where('id', '=', item.id)
      .execute();
    await db
      .insertInto('plans')
      .values({
        app: 'tailor',
        name: `顺序套餐 ${i}`,
        description: '',
        price: 100 + v,
        original_price: 200,
        duration_days: 30,
        bonus_coins: 0,
        ios_product_id: '',
        android_product_id: '',
        sort: v,
        on_sale: 1,
        badge: '',
        ...stamps,
      })
      .execute();
    await db
      .insertInto('vip_records')
      .values({
        user_id,
        app: 'tailor',
        days: v,
        before_expires_at: null,
        after_expires_at: at(-v),
        reason: 'order',
        ref_type: null,
        ref_id: null,
        operator_id: null,
        note: null,
        created_at: at(v),
      })
      .execute();
  }
}
