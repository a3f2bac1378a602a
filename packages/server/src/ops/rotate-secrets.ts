import type { Config } from '../config';
import { secretContext } from '../core/apps';
import { openSecret, sealedUnderCurrent, sealSecret } from '../core/secret-box';
import type { Db } from '../db/index';
import { resealTotpSecrets } from '../features/totp/public';

/**
 * Seals every stored secret again under the current APPDESK_SECRETS_KEY (docs/apps.md#secrets), the
 * apps' and the operators' authenticator secrets (two-factor sign-in):
 * the step of a key rotation between setting the new key (the old one as
 * APPDESK_SECRETS_KEY_PREVIOUS) and removing the old one. One transaction: all or none.
 */
export async function rotateSecrets(db: Db, config: Pick<Config, 'secretKeys'>, print: (line: string) => void) {
  const keys = config.secretKeys;
  if (!keys) {
    print('未配置 APPDESK_SECRETS_KEY：没有可用来重新加密的密钥');
    return 1;
  }
  try {
    const counts = await db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('app_secrets').selectAll().execute();
      let resealed = 0;
      for (const row of rows) {
        if (sealedUnderCurrent(keys, row.sealed)) continue;
        const context = secretContext(row.app_id, row.kind);
        const sealed = sealSecret(keys, openSecret(keys, row.sealed, context), context);
        await trx
          .updateTable('app_secrets')
          .set({ sealed })
          .where('app_id', '=', row.app_id)
          .where('kind', '=', row.kind)
          .execute();
        resealed += 1;
      }
      const totp = await resealTotpSecrets(trx, keys, (sealed) => sealedUnderCurrent(keys, sealed));
      return { total: rows.length + totp.total, resealed: resealed + totp.resealed };
    });
    print(
      `已用当前密钥重新加密 ${counts.resealed} 项密钥（共 ${counts.total} 项）；现在可以去掉 APPDESK_SECRETS_KEY_PREVIOUS`,
    );
    return 0;
  } catch (error) {
    print(`重新加密失败，未做任何修改：${(error as Error).message}`);
    return 1;
  }
}
