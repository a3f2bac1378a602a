import { type Kysely, sql } from 'kysely';

/**
 * Records written before purchases were bound to one account, brought to today's form:
 * - a notification's transaction kept pending with no account (it held no transaction id, so the
 *   app's post made a second record beside it) now holds its id and waits for that post; a copy
 *   beside a record that already holds the id is closed as a duplicate;
 * - reasons that named environment variables or called any purchase a subscription read in words.
 * Texts are written out here (a migration must not change when the code's texts do).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const orphan = sql`platform = 'ios' and status = 'pending' and user_id is null and transaction_id is null
    and claimed_transaction_id is not null`;
  await sql`update iap_records set transaction_id = claimed_transaction_id,
      reason = '等待 App 提交：服务器通知先到，尚不知道这笔购买属于哪个账号，App 提交后即发放'
    where ${orphan}
      and id = (select min(o.id) from iap_records o where o.platform = 'ios' and o.status = 'pending'
        and o.user_id is null and o.transaction_id is null
        and o.claimed_transaction_id = iap_records.claimed_transaction_id)
      and not exists (select 1 from iap_records h where h.platform = 'ios'
        and h.transaction_id = iap_records.claimed_transaction_id)`.execute(db);
  await sql`update iap_records set status = 'rejected',
      reason = '重复记录：同一交易已有记录，本条未发放'
    where ${orphan}`.execute(db);
  const rename: [string, string][] = [
    [
      '服务器未配置 App Store 验证（APPLE_BUNDLE_ID、APPLE_ROOT_CERTIFICATES），配置后由 App 重新提交即可发放',
      '服务器未配置 App Store 校验，配置后由 App 重新提交即可发放',
    ],
    [
      '服务器未配置 Google Play 验证（GOOGLE_PLAY_SERVICE_ACCOUNT），待人工核对',
      '服务器未配置 Google Play 校验，待人工核对',
    ],
  ];
  for (const [from, to] of rename) {
    await sql`update iap_records set reason = ${to} where reason = ${from}`.execute(db);
  }
}
