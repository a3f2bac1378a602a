/**
 * The records the contract's examples name (endpoint.ts `example`): 1 the first admin, 2 the
 * signed-in caller of `user` endpoints, 3 an ordinary user that admin examples act on, 4 a blocked
 * account (设为管理员's example makes it an operator), 5 a second operator, holding no role, that
 * 操作员管理's examples act on (no stronger than whoever holds 操作员管理, so the permission matrix's
 * operator may act on it), and session 2 (user 3's). Shared by the generated suites.
 */

import { randomBytes } from 'node:crypto';
import type { Access } from '@appdesk/contract';
import { grantsChanged } from '../src/core/grants';
import { secretKeysFromEnv } from '../src/core/secret-box';
import { createSession } from '../src/core/sessions';
import { startServer, type TestServer } from './harness';

export interface World {
  server: TestServer;
  adminId: number;
  callerId: number;
  targetId: number;
  blockedId: number;
  operatorId: number;
  /** A new session of an account, as signing in would give. */
  tokenOf(userId: number): Promise<string>;
  /** The token an endpoint of this access level is called with: none, the caller's, the admin's. */
  tokenFor(access: Access): Promise<string>;
}

export async function startWorld(): Promise<World> {
  // With a key to seal secrets with, as a deployment that sets them in 应用管理 has.
  const server = await startServer({
    secretKeys: secretKeysFromEnv({ APPDESK_SECRETS_KEY: randomBytes(32).toString('base64') }),
  });
  await server.initAdmin();
  const db = server.app.services.db;
  const adminId = (await db.selectFrom('users').select('id').executeTakeFirstOrThrow()).id;
  const callerId = (await server.addUser()).id;
  const targetId = (await server.addUser()).id;
  const blockedId = (await server.addUser({ blocked: true })).id;
  const operatorId = (await server.addUser({ isAdmin: true })).id;
  // An operator without a role (as 设为管理员 leaves one), not a second 超级管理员.
  await db.deleteFrom('operator_roles').where('user_id', '=', operatorId).execute();
  grantsChanged();
  const tokenOf = (userId: number) => createSession(db, userId, { ip: null, userAgent: null });
  // The session the 强制下线 example ends: user 3's, which nothing before it signs out.
  await tokenOf(targetId);
  const targetSession = await db.selectFrom('sessions').select('id').where('user_id', '=', targetId).executeTakeFirst();
  if (adminId !== 1 || callerId !== 2 || targetId !== 3 || operatorId !== 5 || targetSession?.id !== 2) {
    throw new Error(
      `the examples' ids do not hold: ${adminId}, ${callerId}, ${targetId}, ${operatorId}, ${targetSession?.id}`,
    );
  }
  return {
    server,
    adminId,
    callerId,
    targetId,
    blockedId,
    operatorId,
    tokenOf,
    tokenFor: async (access) => (access === 'public' ? '' : tokenOf(access === 'admin' ? adminId : callerId)),
  };
}
