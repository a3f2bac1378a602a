import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, nextPhone, startServer, type TestServer } from './harness';

/** A real SMTP server on loopback that keeps what it receives. */
let smtp: SMTPServer;
const received: { to: string[]; text: string }[] = [];
let server: TestServer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          text: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  server = await startServer({ smtpUrl: `smtp://127.0.0.1:${port}`, publicUrl: 'https://appdesk.example.com' });
});
afterAll(async () => {
  await server.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('email verification over SMTP', () => {
  it('mails a one-time link to the new address; opening it verifies the address', async () => {
    const phone = nextPhone();
    const registered = await server.call('/api/users/register', {
      phone,
      password: await digest('App12345'),
      app: 'tailor',
    });
    const token = (registered.body.data as { token: string }).token;
    const answer = await server.call('/api/users/update/info', { email: 'li@example.com' }, token);
    expect(answer.body.data).toMatchObject({ emailSent: true, user: { email: null, emailVerified: false } });

    expect(received).toHaveLength(1);
    expect(received[0].to).toEqual(['li@example.com']);
    // Undo quoted-printable (soft line breaks, encoded '=') before reading the link.
    const body = received[0].text.replace(/=\r?\n/g, '').replaceAll('=3D', '=');
    const emailToken = body.match(/https:\/\/appdesk\.example\.com\/email\/validate\?token=([A-Za-z0-9_-]+)/)?.[1];
    expect(emailToken).toBeDefined();
    // The link is mailed, not logged.
    expect(server.logs.join('')).not.toContain(emailToken as string);

    const validated = await server.call('/api/users/validate/email', { token: emailToken as string });
    expect(validated.body).toMatchObject({ code: 200, data: { email: 'li@example.com' } });
    const me = await server.call('/api/users/fetch/info', {}, token);
    expect(me.body.data).toMatchObject({ user: { email: 'li@example.com', emailVerified: true } });
  });
});
