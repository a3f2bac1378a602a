/**
 * An upload belongs to who made it (core/attachments.ts): the account signed in when it was made,
 * or, made signed out on `/api/feedback/upload`, whoever holds the claim token its answer carried.
 * File ids are sequential, so every endpoint that takes one is tried here by someone else: another
 * account, a caller not signed in, an operator, with and without a wrong token.
 */
import { createHash } from 'node:crypto';
import { type ApiPath, type EndpointDef, endpoints } from '@appdesk/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectClean } from './clean';
import { type Answer, startServer, type TestServer, tinyPng } from './harness';

let server: TestServer;
let admin: string;
let alice: { id: number; token: string };
let bob: { id: number; token: string };
beforeAll(async () => {
  server = await startServer();
  admin = (await server.initAdmin()).token;
  const a = await server.addUser();
  const b = await server.addUser();
  alice = { id: a.id, token: await server.login(a.phone, a.password) };
  bob = { id: b.id, token: await server.login(b.phone, b.password) };
});
afterAll(async () => {
  await server.close();
});

type Upload = { id: number; url: string; token: string };
let devices = 0;
const feedback = (extra: object) => ({
  app: 'tailor',
  content: '截图拼接时闪退',
  contact: 'QQ 12345',
  deviceId: `owner-${process.pid}-${++devices}`,
  ...extra,
});
const thread = (extra: object) => ({ app: 'tailor', category: 'bug', content: '看看这张图', ...extra });
const upload = async (session = ''): Promise<Upload> => {
  const answer = await server.upload('/api/feedback/upload', 'file', tinyPng, 'shot.png', session);
  expect(answer.body.code).toBe(200);
  return answer.body.data as Upload;
};
const ok = async <T>(path: string, body: unknown, session: string) => {
  const answer = await server.call(path, body, session);
  expect([answer.body.code, answer.body.message]).toEqual([200, answer.body.message]);
  return answer.body.data as T;
};
/** Refused as if the image did not exist, and nothing of it (its URL) in the answer. */
const expectRefused = (answer: Answer, image: Upload) => {
  expectClean(answer);
  expect([answer.body.code, answer.body.message]).toEqual([400, expect.stringContaining('不存在或已过期')]);
  expect(answer.text).not.toContain(image.url);
};

/** The endpoints whose input names stored files by id, found in the contract: a file-like field taking numbers. */
const fileLike = /image|file|screenshot|attachment|icon|logo|avatar|cover|picture|photo/i;
const takesIds = (schema: { safeParse(v: unknown): { success: boolean } }) =>
  schema.safeParse(1).success || schema.safeParse([1]).success;
const takingFileIds = (Object.keys(endpoints) as ApiPath[]).filter((p) => {
  const input = (endpoints[p] as EndpointDef).input as unknown as { shape?: Record<string, never> };
  return Object.entries(input.shape ?? {}).some(([k, schema]) => fileLike.test(k) && takesIds(schema));
});

describe('who may attach an upload', () => {
  it('covers every endpoint of the contract that takes file ids', () => {
    // A new one fails here until it is tried below.
    expect(takingFileIds.sort()).toEqual(
      [
        '/api/feedback/make',
        '/api/feedbackv2/make',
        '/api/feedbackv2/post',
        '/api/feedbackv2/reply',
        '/api/version/make',
        '/api/version/parse',
        '/api/version/update',
      ].sort(),
    );
  });

  it('a signed-in upload is its account’s: nobody else attaches or reads it by id', async () => {
    const shot = await upload(alice.token);
    const row = await server.app.services.db
      .selectFrom('files')
      .select(['uploader_id', 'claim_sha256'])
      .where('id', '=', shot.id)
      .executeTakeFirstOrThrow();
    expect(row.uploader_id).toBe(alice.id);
    // Only the token's digest is kept.
    expect(row.claim_sha256).toBe(createHash('sha256').update(shot.token).digest('hex'));
    expect(row.claim_sha256).not.toContain(shot.token);

    // Alice attaches it to her payment thread without any upload token.
    const { thread: hers } = await ok<{ thread: { id: number } }>(
      '/api/feedbackv2/make',
      thread({ category: 'payment', images: [shot.id] }),
      alice.token,
    );

    const { thread: his } = await ok<{ thread: { id: number } }>('/api/feedbackv2/make', thread({}), bob.token);
    const bobsOwn = await upload(bob.token);
    const attempts: [string, ApiPath, object, string][] = [
      ['anonymous feedback', '/api/feedback/make', feedback({ images: [shot.id] }), ''],
      [
        'anonymous, another token',
        '/api/feedback/make',
        feedback({ images: [shot.id], imageTokens: [bobsOwn.token] }),
        '',
      ],
      ['Bob’s feedback', '/api/feedback/make', feedback({ images: [shot.id] }), bob.token],
      ['Bob’s new thread', '/api/feedbackv2/make', thread({ images: [shot.id] }), bob.token],
      ['Bob’s post', '/api/feedbackv2/post', { id: his.id, content: '图', images: [shot.id] }, bob.token],
      ['an operator’s reply to Bob', '/api/feedbackv2/reply', { id: his.id, content: '图', images: [shot.id] }, admin],
    ];
    for (const [name, path, body, session] of attempts) {
      const answer = await server.call(path, body, session);
      expect([name, answer.body.code]).toEqual([name, 400]);
      expectRefused(answer, shot);
    }
    // An operator's package calls take packages only: a user's screenshot is no package.
    const parsed = await server.call('/api/version/parse', { fileId: shot.id }, admin);
    expect(parsed.body.code).toBe(404);
    const made = await server.call(
      '/api/version/make',
      {
        app: 'tailor',
        platform: 'android',
        channel: 'huawei',
        versionName: '9.0.0',
        versionCode: 900,
        fileId: shot.id,
      },
      admin,
    );
    expect([made.body.code, made.text.includes(shot.url)]).toEqual([400, false]);

    // Still Alice's alone: she attaches it again (to a post in her thread), and only her thread shows it.
    await ok('/api/feedbackv2/post', { id: hers.id, content: '再附一次', images: [shot.id] }, alice.token);
    const bobs = await ok<{ posts: { images: unknown[] }[] }>(
      '/api/feedbackv2/fetch/thread',
      { id: his.id },
      bob.token,
    );
    expect(JSON.stringify(bobs)).not.toContain(shot.url);
  });

  it('a signed-out upload is attached only with its token, by whoever holds it', async () => {
    const shot = await upload();
    const row = await server.app.services.db
      .selectFrom('files')
      .select(['uploader_id'])
      .where('id', '=', shot.id)
      .executeTakeFirstOrThrow();
    expect(row.uploader_id).toBeNull();
    expect(shot.token).toMatch(/^[\w-]{43}$/);

    const other = await upload();
    for (const [body, session] of [
      [feedback({ images: [shot.id] }), ''],
      [feedback({ images: [shot.id], imageTokens: [other.token] }), ''],
      [feedback({ images: [shot.id] }), bob.token],
      [thread({ images: [shot.id] }), bob.token],
    ] as const) {
      const path = 'category' in body ? '/api/feedbackv2/make' : '/api/feedback/make';
      expectRefused(await server.call(path, body, session), shot);
    }
    // A malformed token is refused by the contract, in Chinese.
    const malformed = await server.call('/api/feedback/make', feedback({ images: [shot.id], imageTokens: ['x'] }));
    expect([malformed.body.code, malformed.body.message]).toEqual([400, expect.stringContaining('上传凭证')]);

    // With both tokens, in any order, the app attaches both of its uploads.
    const sent = await ok<{ feedback: { images: { id: number; url: string }[] } }>(
      '/api/feedback/make',
      feedback({ images: [shot.id, other.id], imageTokens: [other.token, shot.token] }),
      '',
    );
    expect(sent.feedback.images).toEqual([
      { id: shot.id, url: shot.url },
      { id: other.id, url: other.url },
    ]);
  });

  it('an operator attaches only their own uploads to a reply', async () => {
    const { thread: his } = await ok<{ thread: { id: number } }>('/api/feedbackv2/make', thread({}), bob.token);
    const bobs = await upload(bob.token);
    expectRefused(
      await server.call('/api/feedbackv2/reply', { id: his.id, content: '图', images: [bobs.id] }, admin),
      bobs,
    );
    const mine = await server.upload('/api/finder/single', 'file', tinyPng, 'reply.png', admin);
    const id = (mine.body.data as { id: number }).id;
    await ok('/api/feedbackv2/reply', { id: his.id, content: '请看图', images: [id] }, admin);
  });
});
