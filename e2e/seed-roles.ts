import { existsSync } from 'node:fs';
import path from 'node:path';
import type { builtinRoles, Permission } from '@appdesk/contract/permissions';
import SQLite from 'better-sqlite3';

/**
 * Roles for the test's operators, written straight into the test server's SQLite database (the
 * harness's data folder, E2E_DATA_DIR): a test-only way in, used until the specs can give roles
 * through 操作员管理's own endpoints. An operator made with 设为管理员 alone holds no role, and the
 * server refuses them every page. Not for the cluster topology (PostgreSQL behind nginx).
 */
export type SeededRole = { builtin?: keyof typeof builtinRoles; permissions?: Permission[] };

const databaseFile = () => path.join(process.env.E2E_DATA_DIR ?? '', 'appdesk.sqlite');

/** True when the run's database is the SQLite file this module can write. */
export const canSeedRoles = (): boolean =>
  Boolean(process.env.E2E_DATA_DIR) && process.env.E2E_TOPOLOGY !== 'cluster' && existsSync(databaseFile());

/** Makes `userId` (already an administrator) an operator holding `roles`; a role without `builtin` is made for it. */
export function seedRoles(userId: number, roles: SeededRole[], name: string): void {
  if (!canSeedRoles()) throw new Error('roles are seeded into the SQLite test database (E2E_DATA_DIR) only');
  const db = new SQLite(databaseFile());
  db.pragma('busy_timeout = 10000');
  try {
    const now = Date.now();
    db.prepare('INSERT OR IGNORE INTO operators (user_id, apps, created_at, updated_at) VALUES (?, NULL, ?, ?)').run(
      userId,
      now,
      now,
    );
    for (const role of roles) {
      let roleId: number;
      if (role.builtin) {
        roleId = (db.prepare('SELECT id FROM roles WHERE builtin = ?').get(role.builtin) as { id: number }).id;
      } else {
        const made = db
          .prepare(
            'INSERT INTO roles (builtin, name, description, permissions, apps, require_totp, created_at, updated_at) VALUES (NULL, ?, ?, ?, NULL, 0, ?, ?)',
          )
          .run(`测试角色 ${name}`, '端到端测试用', JSON.stringify(role.permissions ?? []), now, now);
        roleId = Number(made.lastInsertRowid);
      }
      db.prepare('INSERT OR IGNORE INTO operator_roles (user_id, role_id) VALUES (?, ?)').run(userId, roleId);
    }
  } finally {
    db.close();
  }
}
