import { type ApiAnswer, createApiClient } from '@appdesk/contract/client';
import type { ApiInput, ApiOutput, ApiPath } from '@appdesk/contract/types';

/** The answer envelope of every AppDesk endpoint. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

const client = (base: string) => createApiClient({ baseUrl: base });

/** Any path with any body (the scenarios, the bare baseline): the envelope, whatever its code. */
export async function call<T = unknown>(
  base: string,
  path: string,
  body: unknown = {},
  token = '',
): Promise<Envelope<T>> {
  const answer: ApiAnswer<ApiPath> = await client(base).sendRaw(path, body, {
    token,
    signal: AbortSignal.timeout(30_000),
  });
  if (!answer.body) throw new Error(`${path}: HTTP ${answer.status}, not JSON: ${answer.text.slice(0, 200)}`);
  return answer.body as unknown as Envelope<T>;
}

/** A typed call of a contract endpoint that must answer code 200 (the contract's client). */
export function callOk<P extends ApiPath>(
  base: string,
  path: P,
  body?: ApiInput<P>,
  token = '',
): Promise<ApiOutput<P>> {
  return client(base).ok(path, body, { token, signal: AbortSignal.timeout(30_000) });
}
/** True when a response body is an envelope with code 200 (cheap prefix test first). */
export function isCode200(body: string | Buffer | undefined): boolean {
  if (body === undefined) return false;
  const text = typeof body === 'string' ? body : body.toString('utf8');
  if (text.startsWith('{"code":200,')) return true;
  try {
    return (JSON.parse(text) as { code?: unknown }).code === 200;
  } catch {
    return false;
  }
}
