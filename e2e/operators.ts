import path from 'node:path';
import type { Permission } from '@appdesk/contract/permissions';
import { builtinRoles } from '@appdesk/contract/permissions';
import { expect, type Page } from '@playwright/test';
import SQLite from 'better-sqlite3';
import { admin, api, freshPhone, sha256 } from './support';

/**
 * Operators with roles for the specs that look at what each one sees (the console's gating).
 *
 * An account registers and the first admin makes it an administrator through the API, as the
 * console's 设为管理员 does; that operator holds no role. Its roles are then written straight into
 * the test server's SQLite database (the harness's data folder, E2E_DATA_DIR): a test-only way in,
 * used until the specs can give roles through 操作员管理's own endpoints. Nothing here runs against
 * the cluster topology (PostgreSQL behind nginx), whose specs are listed in scripts/test.mjs.
 */
export interface Operator {
  id: number;
  phone: string;
  password: string;
}

const password = 'Operator12345';

function database() {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run through e2e/playwright.config.ts');
  const db = new SQLite(path.join(dir, 'appdesk.sqlite'));
  db.pragma('busy_timeout = 10000');
  return db;
}

/** A new operator: an administrator holding the given roles (none: the console's empty state). */
export async function makeOperator(roles: { builtin?: keyof typeof builtinRoles; permissions?: Permission[] }[]) {
  const phone = freshPhone('137');
  const registered = await api('/api/users/register', { phone, password: sha256(password), app: 'tailor' });
  expect(registered.code).toBe(200);
  const id = registered.data?.user.id as number;
  const login = await api('/api/users/login', { phone: admin.phone, password: sha256(admin.password) });
  const granted = await api('/api/users/update/admin', { id, isAdmin: true }, login.data?.token as string);
  expect([granted.code, granted.message]).toEqual([200, granted.message]);

  const db = database();
  try {
    const now = Date.now();
    db.prepare('INSERT OR IGNORE INTO operators (user_id, apps, created_at, updated_at) VALUES (?, NULL, ?, ?)').run(
      id,
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
          .run(`测试角色 ${phone}`, '端到端测试用', JSON.stringify(role.permissions ?? []), now, now);
        roleId = Number(made.lastInsertRowid);
      }
      db.prepare('INSERT INTO operator_roles (user_id, role_id) VALUES (?, ?)').run(id, roleId);
    }
  } finally {
    db.close();
  }
  return { id, phone, password } satisfies Operator;
}

/** Signs the operator in with every menu group open and the menu expanded (they are remembered per browser). */
export async function signInOperator(page: Page, operator: Operator) {
  await page.addInitScript(() => {
    localStorage.setItem('appdesk.menu.collapsed', '0');
    localStorage.setItem(
      'appdesk.menu.open',
      JSON.stringify(['overview', 'people', 'release', 'commerce', 'content', 'system'].map((g) => `group-${g}`)),
    );
  });
  await page.goto('/user/login');
  await page.getByLabel('手机号').fill(operator.phone);
  await page.getByLabel('密码').fill(operator.password);
  await page.getByRole('button', { name: '登录' }).click();
  await expect(page).toHaveURL(/\/admin\/admin\//);
}

/** The side menu's entries as the operator sees them. */
export async function menuEntries(page: Page): Promise<string[]> {
  const menu = page.locator('nav[aria-label="管理菜单"] .admin-menu');
  await expect(menu.getByRole('menuitem').first()).toBeVisible();
  return (await menu.locator('.ant-menu-item').allInnerTexts()).map((text) => text.trim());
}
