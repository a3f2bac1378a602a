/**
 * Requests the hostile sweep expects refused before any handler runs: bodies that are not an
 * endpoint's input at all, and multipart bodies a broken or hostile client sends.
 */
import { sampleUpload } from './harness';
import type { Variant } from './sweep-variants';

/** JSON bodies that are no object, or no JSON, or try to reach a prototype: each answers 400. */
export const notAnObject: unknown[] = [[], 'text', 42];
export const malformedJson = ['{"a":', '{"__proto__":{"isAdmin":true}}', '{"constructor":{"prototype":{"x":1}}}'];

/**
 * The refused variants sent over HTTP: the first, the middle and the last, so each endpoint's
 * route is seen refusing with the schema's own message; the others are judged on the schema alone.
 */
export function sampleOf(refused: Variant[]): Variant[] {
  if (refused.length === 0) return [];
  const picks = new Set([0, Math.floor(refused.length / 2), refused.length - 1]);
  return [...picks].map((i) => refused[i]);
}

/**
 * Multipart bodies around an otherwise acceptable file of the endpoint's kind: none is a whole,
 * valid form with the file under its field.
 */
export function malformedMultipart(field: string, kind: string): { name: string; type: string; body: Buffer }[] {
  const form = 'multipart/form-data; boundary=';
  const bytes = Buffer.from(sampleUpload(kind));
  const head = (b: string, extra = '') =>
    `--${b}\r\n${extra}Content-Disposition: form-data; name="${field}"; filename="x.png"\r\n` +
    'Content-Type: application/octet-stream\r\n\r\n';
  const part = (b: string, extra = '') => Buffer.concat([Buffer.from(head(b, extra)), bytes]);
  const long = 'b'.repeat(300);
  return [
    { name: '--x only', type: `${form}x`, body: Buffer.from('--x\r\n') },
    { name: 'empty boundary', type: form, body: Buffer.concat([part(''), Buffer.from('\r\n----\r\n')]) },
    { name: 'no boundary parameter', type: 'multipart/form-data', body: Buffer.from('--x\r\n') },
    { name: 'quoted empty boundary', type: `${form}""`, body: Buffer.from('--\r\n') },
    {
      name: 'boundary of 300 characters',
      type: `${form}${long}`,
      body: Buffer.concat([part(long), Buffer.from(`\r\n--${long}--\r\n`)]),
    },
    { name: 'truncated part', type: `${form}x`, body: part('x').subarray(0, head('x').length + 8) },
    { name: 'missing closing boundary', type: `${form}x`, body: Buffer.concat([part('x'), Buffer.from('\r\n')]) },
    {
      name: 'part headers never end',
      type: `${form}x`,
      body: Buffer.from(`--x\r\nContent-Disposition: form-data; name="${field}"`),
    },
    { name: 'boundary in header, none in body', type: `${form}x`, body: bytes },
    { name: 'empty body', type: `${form}x`, body: Buffer.alloc(0) },
    {
      name: 'huge header line',
      type: `${form}x`,
      body: Buffer.concat([part('x', `X-Pad: ${'a'.repeat(200_000)}\r\n`), Buffer.from('\r\n--x--\r\n')]),
    },
    {
      name: 'part without name',
      type: `${form}x`,
      body: Buffer.concat([
        Buffer.from('--x\r\nContent-Disposition: form-data; filename="x.png"\r\n\r\n'),
        bytes,
        Buffer.from('\r\n--x--\r\n'),
      ]),
    },
  ];
}
