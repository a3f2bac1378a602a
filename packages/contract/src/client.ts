import type { ApiInput, ApiOutput, ApiPath, ApiResponse } from './endpoints/index';

/**
 * The typed way to call the API, shared by the web, the server tests, the end-to-end tests and
 * the bench: POST JSON with the `token` header (empty when signed out), typed from the contract.
 * Zod-free; it only imports types.
 */
export interface ApiClientOptions {
  /** Origin to call, e.g. `http://127.0.0.1:8000`; empty in the browser (same origin). */
  baseUrl?: string;
  /** The token to send when a call names none. */
  token?: () => string;
  /** `include` in the browser (docs/spec-notes.md#7-requests: cookies included). */
  credentials?: RequestCredentials;
}

export interface CallInit {
  token?: string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** A whole answer: HTTP status, the parsed envelope (undefined when the body is not JSON), the raw text. */
export interface ApiAnswer<P extends ApiPath> {
  status: number;
  body: ApiResponse<P> | undefined;
  text: string;
  headers: Headers;
}

/** An answer with a code other than 200, thrown by `ok()`. */
export class ApiCodeError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = 'ApiCodeError';
  }
}

/** A non-2xx HTTP status or a body that is not JSON, thrown by `call()` and `ok()`. */
export class ApiHttpError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly url: string,
  ) {
    super(statusText || `HTTP ${status}`);
    this.name = 'ApiHttpError';
  }
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(options: ApiClientOptions = {}) {
  const base = options.baseUrl ?? '';

  /** Any body to any path (the tests send hostile ones); never throws for a status or a code. */
  async function sendRaw(path: string, body: unknown, init: CallInit = {}): Promise<ApiAnswer<ApiPath>> {
    const response = await fetch(base + path, {
      method: 'POST',
      credentials: options.credentials,
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json; charset=utf-8',
        token: init.token ?? options.token?.() ?? '',
        ...init.headers,
      },
      body: JSON.stringify(body ?? {}),
      signal: init.signal,
    });
    const text = await response.text();
    let parsed: ApiResponse<ApiPath> | undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, text, headers: response.headers };
  }

  /** One call, typed: the whole answer. */
  const send = <P extends ApiPath>(path: P, input?: ApiInput<P>, init?: CallInit) =>
    sendRaw(path, input, init) as Promise<ApiAnswer<P>>;

  /** The envelope of a 2xx JSON answer, whatever its code; throws ApiHttpError otherwise. */
  async function call<P extends ApiPath>(path: P, input?: ApiInput<P>, init?: CallInit): Promise<ApiResponse<P>> {
    const answer = await send(path, input, init);
    if (answer.status < 200 || answer.status >= 300 || !answer.body) {
      // The server's own (Chinese) words when its answer has them. A failed status without them (a
      // proxy's HTML 502, an empty 404) says nothing here: the caller tells what the status means. Only
      // a 2xx whose body cannot be read is described by that.
      const said = answer.body?.message ?? '';
      const succeeded = answer.status >= 200 && answer.status < 300;
      throw new ApiHttpError(answer.status, answer.body || !succeeded ? said : '返回内容不是有效的 JSON', base + path);
    }
    return answer.body;
  }

  /** The output of a call that must succeed; any code but 200 throws ApiCodeError. */
  async function ok<P extends ApiPath>(path: P, input?: ApiInput<P>, init?: CallInit): Promise<ApiOutput<P>> {
    const body = (await call(path, input, init)) as { code: number; message: string; data?: unknown };
    if (body.code !== 200) throw new ApiCodeError(body.code, body.message, path);
    return ('data' in body ? body.data : body) as ApiOutput<P>;
  }

  return { sendRaw, send, call, ok };
}
