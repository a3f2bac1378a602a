import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness';
import { changeCoins } from '../../core/ledger';
import { newUserRow } from '../../core/new-user';
import { createSession } from '../../core/sessions';

let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.services.db;
const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(7)}`;
const ok = async <T>(path: string, body: unknown, token = admin) => {
  const answer = await server.call(path, body, token);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
type Record = { id: number; status: string; note: string | null; userPhone: string; receiverPhone: string | null };
const auditRows = (action: string, targetId?: number) => {
  let query = db().selectFrom('audit_log').selectAll().where('action', '=', action);
  if (targetId !== undefined) query = query.where('target_id', '=', String(targetId));
  return query.orderBy('id').execute();
};

let seq = 0;
/** An app user with 1,000 coins and a session; their account phone differs from any receiver's. */
async function appUser() {
  const phone = `177${String(Date.now() % 1_000_000).padStart(6, '0')}${String(seq++ % 100).padStart(2, '0')}`;
  const { id } = await db()
    .insertInto('users')
    .values(newUserRow({ phone, password_hash: 'x' }))
    .returning('id')
    .executeTakeFirstOrThrow();
  await db()
    .transaction()
    .execute((trx) => changeCoins(trx, { userId: id, delta: 1000, reason: 'admin', note: '测试' }));
  return { id, phone, token: await createSession(db(), id, { ip: null, userAgent: null }) };
}

async function physicalRecord(receiverPhone: string) {
  const { item } = await ok<{ item: { id: number } }>('/api/exchange/item/make', {
    name: '帆布袋',
    kind: 'physical',
    costCoins: 100,
    stock: 10,
    enabled: true,
  });
  const user = await appUser();
  const delivery = { receiverName: '王五', receiverPhone, address: '杭州市西湖区文三路 1 号' };
  const made = await ok<{ record: { recordNo: string } }>(
    '/api/exchange/make',
    { itemId: item.id, ...delivery },
    user.token,
  );
  const page = await ok<{ list: Record[] }>('/api/exchange/record/fetch/page', { itemId: item.id });
  expect(page.list).toHaveLength(1);
  return { item, user, record: page.list[0], recordNo: made.record.recordNo };
}

describe('a receiver phone is for delivery', () => {
  it('is masked in the list, whole on an audited look; the account phone stays masked', async () => {
    const { user, record } = await physicalRecord('13612345678');
    expect(record.receiverPhone).toBe('136****5678');
    expect(record.userPhone).toBe(masked(user.phone));

    const look = await ok<{ receiverPhone: string }>('/api/exchange/record/fetch/phone', { id: record.id });
    expect(look).toEqual({ receiverPhone: '13612345678' });
    const rows = await auditRows('exchange.record.fetch.phone', record.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].target_type).toBe('exchange_record');
    expect(JSON.stringify(rows[0])).not.toContain('13612345678');

    const { item: coinItem } = await ok<{ item: { id: number } }>('/api/exchange/item/make', {
      name: '10 金币',
      kind: 'coins',
      value: 10,
      costCoins: 1,
      enabled: true,
    });
    await ok('/api/exchange/make', { itemId: coinItem.id }, user.token);
    const coinRecord = (await ok<{ list: Record[] }>('/api/exchange/record/fetch/page', { itemId: coinItem.id }))
      .list[0];
    const none = await server.call('/api/exchange/record/fetch/phone', { id: coinRecord.id }, admin);
    expect(none.body).toMatchObject({ code: 409, message: '该兑换不是实物商品，没有收货手机号' });
    expect((await server.call('/api/exchange/record/fetch/phone', { id: 9_000_000 }, admin)).body.code).toBe(404);
  });

  it('is whole in the warehouse export, whose log row says it holds receiver phones', async () => {
    const { item, user, recordNo } = await physicalRecord('13787654321');
    const answer = await fetch(`${server.url}/api/exchange/record/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', token: admin },
      body: JSON.stringify({ itemId: item.id }),
    });
    expect(answer.headers.get('content-type')).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await answer.arrayBuffer());
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const row = sheet.getRow(2).values as unknown[];
    expect(row[header.indexOf('兑换单号')]).toBe(recordNo);
    expect(row[header.indexOf('收货手机号')]).toBe('13787654321');
    expect(row[header.indexOf('用户手机号')]).toBe(masked(user.phone));
    expect(JSON.stringify(sheet.getSheetValues())).not.toContain(user.phone);

    const [logged] = (await auditRows('exchange.record.export')).slice(-1);
    expect(JSON.parse(logged.after ?? '{}')).toMatchObject({ personalData: '收货人完整手机号' });
    const page = await ok<{ list: { action: string; changes: { label: string; after: string | null }[] }[] }>(
      '/api/audit/fetch/page',
      { size: 1 },
    );
    expect(page.list[0].changes).toContainEqual(
      expect.objectContaining({ label: '含个人信息', after: '收货人完整手机号' }),
    );
  });
});

describe('补发', () => {
  it('asks why, keeps the reason in the record and the log, takes no coins', async () => {
    const { item, user } = await physicalRecord('13511112222');
    const delivery = { receiverName: '王五', receiverPhone: '13511112222', address: '杭州市西湖区文三路 1 号' };
    const noReason = await server.call(
      '/api/exchange/record/make',
      { userId: user.id, itemId: item.id, ...delivery },
      admin,
    );
    expect(noReason.body.code).toBe(400);
    const { record } = await ok<{ record: Record }>('/api/exchange/record/make', {
      userId: user.id,
      itemId: item.id,
      ...delivery,
      note: '快递丢件',
    });
    expect(record).toMatchObject({ status: 'waiting', note: '运营补发：快递丢件', receiverPhone: '135****2222' });
    const coins = await db().selectFrom('users').select('coins').where('id', '=', user.id).executeTakeFirstOrThrow();
    expect(Number(coins.coins)).toBe(900);
    const [logged] = await auditRows('exchange.record.make', record.id);
    expect(logged.after).toContain('快递丢件');
  });
});
