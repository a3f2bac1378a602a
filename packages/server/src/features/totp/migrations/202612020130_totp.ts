import type { Kysely } from 'kysely';
import { type Dialect, ms, pk } from '../../../db/migrations/helpers';

/** Two-factor sign-in for operators (issue 30): authenticators, recovery codes, pending sign-ins. */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('totp_factors')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
    .addColumn('sealed_secret', 'text', (c) => c.notNull())
    .addColumn('enabled_at', ms(dialect))
    .addColumn('last_step', ms(dialect))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await pk(db.schema.createTable('totp_recovery_codes'), dialect)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('used_at', ms(dialect))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('totp_recovery_codes_user').on('totp_recovery_codes').column('user_id').execute();
  await pk(db.schema.createTable('totp_challenges'), dialect)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('app', 'text', (c) => c.notNull())
    .addColumn('expires_at', ms(dialect), (c) => c.notNull())
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema.createIndex('totp_challenges_expiry').on('totp_challenges').column('expires_at').execute();
}
