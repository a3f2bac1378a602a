/** The answer envelope of every AppDesk endpoint. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

/** One POST JSON call as the web client makes it (empty `token` header when signed out). */
export async function call<T = unknown>(
  base: string,
  path: string,
  body: unknown = {},
  token = '',
): Promise<Envelope<T>> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  try {
    return JSON.parse(text) as Envelope<T>;
  } catch {
    throw new Error(`${path}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
}

/** Like `call`, but anything other than code 200 is an error. */
export async function callOk<T = unknown>(base: string, path: string, body: unknown = {}, token = ''): Promise<T> {
  const answer = await call<T>(base, path, body, token);
  if (answer.code !== 200) throw new Error(`${path} answered code ${answer.code}: ${answer.message}`);
  return answer.data;
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
