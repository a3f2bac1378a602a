import { createHash } from 'node:crypto';
import { alipayBody, alipayFields } from '../payment-signers';
import { chainFrom } from '../storekit-chain';
import { type AppCall, appCalls, type Caller, type FixtureEnv, type Recorded, volatilePaths } from './upgrade-common';

/*
 * What make-fixture.ts does on the previous release's running server: fill a representative site
 * through its HTTP API, then record its answers to the app calls.
 */
const sha256hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Fills a fresh site through the release's own API; answers the tokens the app calls use. */
export async function fill(url: string, env: Record<string, string>, keys: FixtureEnv['keys']) {
  const call = async (p: string, body: unknown = {}, token = '') => {
    const response = await fetch(url + p, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as { code: number; message: string; data?: unknown };
    if (answer.code !== 200) throw new Error(`${p} ${JSON.stringify(body).slice(0, 200)}: ${JSON.stringify(answer)}`);
    return answer.data as Record<string, unknown>;
  };
  const login = async (phone: string, password: string) =>
    (await call('/api/users/login', { phone, password: sha256hex(password) })).token as string;

  await call('/api/allocation/init', {
    phone: '13800000000',
    password: sha256hex('Admin12345'),
    title: '滚动截屏',
    slogen: '长截图，一步到位',
  });
  const admin = await login('13800000000', 'Admin12345');
  await call(
    '/api/allocation/update',
    { icp: '京ICP备12345678号-1', androidUrl: 'https://example.com/tailor.apk' },
    admin,
  );
  await call('/api/allocation/update/about', { about: '我们是一家专注效率工具的小团队。' }, admin);

  // App users: one VIP (who pays an order), one with coins (who buys in the app and redeems).
  const register = (phone: string) =>
    call('/api/users/register', { phone, password: sha256hex('User12345'), app: 'tailor', channel: 'huawei' });
  const vip = (await register('13900000001')).user as { id: number };
  const rich = (await register('13900000002')).user as { id: number };
  const vipToken = await login('13900000001', 'User12345');
  const richToken = await login('13900000002', 'User12345');
  await call('/api/users/update/info', { nickname: '会员小明' }, vipToken);
  await call('/api/vip/update', { id: vip.id, days: 36_500, reason: '老用户补偿' }, admin);
  await call('/api/users/update/coins', { id: rich.id, delta: 5000, reason: '活动奖励' }, admin);

  // Releases, remote config, plans and IAP products.
  const android = (
    await call(
      '/api/version/make',
      {
        app: 'tailor',
        platform: 'android',
        channel: 'huawei',
        versionName: '2.0.0',
        versionCode: 200,
        minVersionCode: 150,
        changelog: '1. 长截图拼接更快\n2. 修复部分机型闪退',
        storeUrl: 'appmarket://details?id=com.appdesk.tailor',
      },
      admin,
    )
  ).version as { id: number };
  await call('/api/version/publish', { id: android.id }, admin);
  await call('/api/version/copy', { id: android.id, channels: ['xiaomi'] }, admin);
  await call(
    '/api/a11t/make',
    { key: 'feature.long_shot', type: 'boolean', value: 'true', description: '长截图新算法' },
    admin,
  );
  await call(
    '/api/a11t/make',
    { key: 'ui.banner', type: 'string', value: '双十一会员五折', description: '首页横幅' },
    admin,
  );
  const year = (
    await call(
      '/api/plan/make',
      {
        app: 'tailor',
        name: '年度会员',
        description: '全部功能一年畅用',
        price: 9800,
        originalPrice: 19800,
        durationDays: 365,
        bonusCoins: 500,
        iosProductId: 'com.appdesk.tailor.vip.year',
        sort: 10,
        onSale: true,
        badge: '限时优惠',
      },
      admin,
    )
  ).plan as { id: number };
  await call('/api/plan/make', { app: 'tailor', name: '月度会员', price: 1800, durationDays: 30, onSale: true }, admin);
  for (const product of [
    {
      productId: 'com.appdesk.tailor.vip.month',
      type: 'subscription',
      name: '连续包月',
      price: 1800,
      vipDays: 31,
      coins: 0,
    },
    {
      productId: 'com.appdesk.tailor.coins.100',
      type: 'consumable',
      name: '100 金币',
      price: 600,
      vipDays: 0,
      coins: 100,
    },
  ]) {
    await call('/api/iap/make', { app: 'tailor', platform: 'ios', enabled: true, ...product }, admin);
  }

  // An order paid by an Alipay notification signed with the maker's key.
  const order = (await call('/api/order/make', { planId: year.id, payMethod: 'alipay', channel: 'huawei' }, vipToken))
    .order as { orderNo: string };
  const notified = await fetch(`${url}/api/payment/alipay/notify`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
    body: alipayBody(alipayFields(keys.alipay, order.orderNo, '98.00'), keys.alipay.alipayPrivateKey),
  });
  if ((await notified.text()) !== 'success') throw new Error('the Alipay notification was refused');

  // An App Store purchase (StoreKit 2, Sandbox) signed by the maker's chain.
  const chain = chainFrom(keys.storekit);
  const now = Date.now();
  await call(
    '/api/iaprecord/apple',
    {
      app: 'tailor',
      signedTransaction: chain.sign({
        transactionId: '2000000000000001',
        originalTransactionId: '2000000000000001',
        bundleId: env.APPLE_BUNDLE_ID,
        appAppleId: Number(env.APPLE_APP_APPLE_ID),
        productId: 'com.appdesk.tailor.coins.100',
        purchaseDate: now,
        signedDate: now,
        environment: 'Sandbox',
        type: 'Consumable',
        inAppOwnershipType: 'PURCHASED',
      }),
    },
    richToken,
  );

  // Exchange items, one redeemed with coins.
  const codeItem = (
    await call(
      '/api/exchange/item/make',
      { name: '视频会员月卡兑换码', kind: 'code', costCoins: 300, perUserLimit: 1, enabled: true },
      admin,
    )
  ).item as { id: number };
  await call('/api/exchange/code/import', { itemId: codeItem.id, text: 'VIP-AAAA-0001\nVIP-AAAA-0002' }, admin);
  await call(
    '/api/exchange/item/make',
    { name: '7 天会员', kind: 'vip_days', value: 7, costCoins: 700, enabled: true },
    admin,
  );
  await call('/api/exchange/make', { itemId: codeItem.id }, richToken);

  // Help, in-app messages (one to everyone, one to the VIP user, one of them read).
  await call(
    '/api/help/make',
    {
      app: 'tailor',
      title: '如何导出长截图',
      category: '常见问题',
      sort: 10,
      published: true,
      content: '## 步骤\n\n1. 打开滚动截屏\n2. 滑动到需要的位置\n3. 点击 **导出**',
    },
    admin,
  );
  await call(
    '/api/help/make',
    { app: 'tailor', title: '会员权益说明', category: '会员', published: true, content: '会员可去除水印。' },
    admin,
  );
  await call(
    '/api/help/make',
    { app: 'tailor', title: '草稿', category: '会员', published: false, content: '未发布' },
    admin,
  );
  const everyone = (
    await call('/api/message/make', { title: '系统维护通知', content: '今晚 22:00 维护。', userId: null }, admin)
  ).message as { id: number };
  await call('/api/message/make', { title: '会员到账', content: '您的会员已到账。', userId: vip.id }, admin);
  await call('/api/message/read', { id: everyone.id }, vipToken);

  // Feedback (both kinds, answered), a review reward, a promoted app.
  const feedback = (
    await call(
      '/api/feedback/make',
      {
        app: 'tailor',
        content: '长截图第 5 张时闪退。',
        contact: 'QQ 12345678',
        version: '2.0.0',
        channel: 'huawei',
        deviceId: 'upgrade-device-1',
        deviceModel: 'HUAWEI Mate 60',
        osVersion: 'HarmonyOS 4.0',
      },
      vipToken,
    )
  ).feedback as { id: number };
  await call('/api/feedback/reply', { id: feedback.id, reply: '已在 2.0.1 修复，请更新。' }, admin);
  const thread = (
    await call(
      '/api/feedbackv2/make',
      { app: 'tailor', category: 'payment', content: '扣款成功但未开通', version: '2.0.0' },
      vipToken,
    )
  ).thread as { id: number };
  await call('/api/feedbackv2/reply', { id: thread.id, content: '已为您补开会员。' }, admin);
  await call('/api/reviewreward/update/settings', { app: 'tailor', coins: 200 }, admin);
  const form = new FormData();
  // Multipart fields travel as JSON values beside the file.
  form.append('app', JSON.stringify('tailor'));
  form.append('store', JSON.stringify('huawei'));
  form.append('screenshot', new Blob([tinyPng]), 'shot.png');
  const claimed = (await (
    await fetch(`${url}/api/reviewreward/make`, { method: 'POST', headers: { token: richToken }, body: form })
  ).json()) as {
    code: number;
    data: { claim: { id: number } };
  };
  if (claimed.code !== 200) throw new Error(`review reward: ${JSON.stringify(claimed)}`);
  await call('/api/reviewreward/approve', { id: claimed.data.claim.id }, admin);
  await call(
    '/api/selfapp/make',
    {
      name: '极简记账',
      packageId: 'com.appdesk.ledger',
      androidUrl: 'https://example.com/ledger.apk',
      iosUrl: 'https://apps.apple.com/cn/app/id1234567890',
      rewardCoins: 50,
    },
    admin,
  );
  return { tokens: { admin, vip: vipToken, rich: richToken }, refs: { orderNo: order.orderNo } };
}

/** Each app call's answer, asked twice a second apart: fields that differ are times of now. */
export async function record(
  url: string,
  tokens: Record<Caller, string>,
  refs: Record<string, string>,
): Promise<Recorded[]> {
  // `{{name}}` in a call's body: a value of this site (its order number).
  const calls = appCalls.map((c) => ({
    ...c,
    body: JSON.parse(JSON.stringify(c.body ?? {}).replace(/\{\{(\w+)\}\}/g, (_all, name: string) => refs[name])),
  }));
  const ask = async (c: AppCall) => {
    const response = await fetch(url + c.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: c.as ? tokens[c.as] : '' },
      body: JSON.stringify(c.body ?? {}),
    });
    return (await response.json()) as Recorded['answer'];
  };
  // One after another, in the list's order, as the test asks them (a thread read marks it read).
  const inTurn = async () => {
    const answers: Recorded['answer'][] = [];
    for (const c of calls) answers.push(await ask(c));
    return answers;
  };
  const first = await inTurn();
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const second = await inTurn();
  return calls.map((c, i) => {
    if (first[i].code !== 200) throw new Error(`${c.path}: ${JSON.stringify(first[i])}`);
    return { ...c, answer: first[i], volatile: volatilePaths(first[i], second[i]) };
  });
}
