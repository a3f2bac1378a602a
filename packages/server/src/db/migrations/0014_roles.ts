import { builtinRoles } from '@appdesk/contract/permissions';
import { type Kysely, sql } from 'kysely';
import { type Dialect, ms, pk } from './helpers';

/**
 * A team instead of one flag (issue 30): roles hold permissions and the apps they reach, operators
 * hold roles. The six built-in roles start with the contract's defaults of the version that runs
 * this (超级管理员 holds every permission whatever is stored, core/grants.ts; the others are
 * starting points an operator may change), and every administrator of before becomes a
 * 超级管理员, so an upgraded site works as it did.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await pk(db.schema.createTable('roles'), dialect)
    .addColumn('builtin', 'text', (c) => c.unique())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // JSON arrays: permission keys; app codes (null: every app, also those registered later).
    .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('apps', 'text')
    .addColumn('require_totp', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('operator_roles')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id'))
    .addPrimaryKeyConstraint('operator_roles_pk', ['user_id', 'role_id'])
    .execute();
  await db.schema.createIndex('operator_roles_role').on('operator_roles').columns(['role_id', 'user_id']).execute();
  // An operator's own limit on apps, within what their roles reach (null: no further limit).
  await db.schema
    .createTable('operators')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id'))
    .addColumn('apps', 'text')
    .addColumn('created_at', ms(dialect), (c) => c.notNull())
    .addColumn('updated_at', ms(dialect), (c) => c.notNull())
    .execute();

  const now = Date.now();
  for (const [builtin, role] of Object.entries(builtinRoles)) {
    const permissions = builtin === 'super' ? [] : role.permissions;
    await sql`insert into roles (builtin, name, description, permissions, apps, require_totp, created_at, updated_at)
      values (${builtin}, ${role.name}, ${role.description}, ${JSON.stringify(permissions)}, null, 0, ${now}, ${now})`.execute(
      db,
    );
  }
  await sql`insert into operators (user_id, apps, created_at, updated_at)
    select id, null, ${now}, ${now} from users where is_admin = 1`.execute(db);
  await sql`insert into operator_roles (user_id, role_id)
    select u.id, r.id from users as u, roles as r where u.is_admin = 1 and r.builtin = 'super'`.execute(db);
}
