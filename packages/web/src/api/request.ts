import { ApiHttpError, createApiClient } from '@appdesk/contract/client';
import { Code, isDenial, sessionEndingCodes } from '@appdesk/contract/codes';
import { timings } from '@appdesk/contract/constants';
import type { ApiInput, ApiOutput, ApiPath, ApiResponse, Envelope } from '@appdesk/contract/types';
import { clearSession, getToken, loginUrl, rememberSignOut, type SignOutCode, safeReturnPath } from '../state/session';
import { notify } from './notify';
import { statusMeaning } from './status';

/**
 * The request client (docs/spec-notes.md#7-requests, docs/spec-notes.md#8-answers-notices-and-the-session): POST by default, cookies included, JSON in and
 * out, the stored token in a `token` header, one error policy for the whole app.
 */

/** A coded answer: one that ended the session (401/402/403), or any non-200 of `callOk`; its code is the id. */
export class ApiError extends Error {
  readonly id: number;
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'ApiError';
    this.id = code;
    this.code = code;
  }
}

/** A non-2xx HTTP status, or a network failure (status 0). */
export class HttpError extends Error {
  readonly status: number;
  readonly url: string;
  constructor(status: number, statusText: string, url: string) {
    super(statusText || `HTTP ${status}`);
    this.name = 'HttpError';
    this.status = status;
    this.url = url;
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** No notifications at all (used for optional background calls). */
  silent?: boolean;
  /** The operator's own action (a write): its refusal stays longer (see `actionErrorSeconds`). */
  action?: boolean;
}

export type AnyEnvelope = Envelope & Record<string, unknown>;

/** Headers of a multipart upload (JSON calls set theirs in the contract's client). */
function uploadHeaders(): Record<string, string> {
  return { Accept: 'application/json', token: getToken() };
}

/**
 * The title of a failed HTTP call: the status in words an operator reads. The call's path means
 * nothing to an operator, so it goes to the browser's console for whoever debugs the page.
 */
export function httpFailureTitle(status: number): string {
  return status === 0 ? '请求失败：无法连接服务器' : `请求错误（状态码 ${status}）`;
}

/** `said`: the server's own message or a Chinese reason of ours; empty shows what the status means. */
export function httpFailure(status: number, said: string, url: string, silent?: boolean, action?: boolean): HttpError {
  const description = said || statusMeaning(status);
  if (!silent) {
    console.warn(`请求 ${url} 失败，HTTP ${status}：${description}`);
    void notify('error', { title: httpFailureTitle(status), description }, { action });
  }
  return new HttpError(status, description, url);
}

/** The `message` of a JSON error body, if it has one. */
export function bodyMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown };
    return typeof body.message === 'string' ? body.message : '';
  } catch {
    return '';
  }
}

/**
 * Leaves this page for `to`, once: the calls a page made together may all answer 401, and only the
 * first says where to go (the later ones, seeing the session already cleared, would drop the
 * 登录已失效 notice). The navigation resets this with the page.
 */
let leaving = false;
function leaveFor(to: string): void {
  if (leaving) return;
  leaving = true;
  window.location.replace(to);
}

/** Applies docs/spec-notes.md#8-answers-notices-and-the-session to a parsed answer; returns it unless the session ended. */
export function handleEnvelope<T extends { code: number; message?: string }>(
  body: T,
  options: { silent?: boolean; action?: boolean } = {},
): T {
  if (body.code === Code.OK) return body;
  // Sign-in's password was right and a second factor comes next: the sign-in page's next step, no error.
  if (body.code === Code.SECOND_FACTOR_REQUIRED) return body;
  const message = body.message || '请求失败';
  // The operator's role requires two-factor sign-in: the sign-in page binds an authenticator, then returns here.
  if (body.code === Code.SECOND_FACTOR_ENROLMENT_REQUIRED) {
    if (window.location.pathname !== '/user/login') {
      const back = safeReturnPath(window.location.pathname + window.location.search);
      leaveFor(`/user/login?enrol=1${back ? `&redirect=${encodeURIComponent(back)}` : ''}`);
    }
    throw new ApiError(body.code, message);
  }
  if (!options.silent) void notify('error', { title: message, description: message }, { action: options.action });
  // The password must be changed first: the login page shows that form for the stored session.
  if (body.code === Code.PASSWORD_CHANGE_REQUIRED && window.location.pathname !== '/user/login') {
    leaveFor('/user/login?change=1');
    throw new ApiError(body.code, message);
  }
  // This operator may not do this one thing (a permission, an app): the session stays.
  if (body.code === Code.FORBIDDEN && isDenial((body as { data?: unknown }).data))
    throw new ApiError(body.code, message);
  if (sessionEndingCodes.includes(body.code)) {
    // Only a token that was held can have lapsed: a call made after signing out (or before ever
    // signing in) that answers 401 sends the visitor to sign in without saying 登录已失效.
    const lapsed = body.code !== Code.UNAUTHENTICATED || Boolean(getToken());
    const reason = lapsed ? (body.code as SignOutCode) : null;
    clearSession();
    // On the login page itself (e.g. a wrong password answers 401) there is nothing to replace.
    // Elsewhere the login page says why (401, 402 or 403), and signing in returns to this page with its query.
    if (window.location.pathname !== '/user/login' && !leaving) {
      if (reason) rememberSignOut(reason, message);
      leaveFor(loginUrl({ reason, from: window.location.pathname + window.location.search }));
    }
    throw new ApiError(body.code, message);
  }
  return body;
}

/** The contract's typed client, with cookies included and the stored token. */
const client = createApiClient({ credentials: 'include', token: getToken });

/** Typed call of a contract endpoint, under the one error policy (coded errors come back as values). */
export async function call<P extends ApiPath>(
  path: P,
  data?: ApiInput<P>,
  options: RequestOptions = {},
): Promise<ApiResponse<P>> {
  let body: ApiResponse<P>;
  try {
    body = await client.call(path, data, { signal: options.signal });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    const { silent, action } = options;
    if (error instanceof ApiHttpError) throw httpFailure(error.status, error.statusText, path, silent, action);
    throw httpFailure(0, '网络连接失败，请检查网络后重试', path, silent, action);
  }
  return handleEnvelope(body, options);
}

/**
 * The output and message of a call that must succeed: any code but 200 throws an ApiError after
 * the error notification has been shown once.
 */
export async function callSucceeded<P extends ApiPath>(
  path: P,
  data?: ApiInput<P>,
  options: RequestOptions = {},
): Promise<{ data: ApiOutput<P>; message: string }> {
  const body = (await call(path, data, options)) as { code: number; message?: string; data?: unknown };
  if (body.code !== Code.OK) throw new ApiError(body.code, body.message || '请求失败');
  return { data: ('data' in body ? body.data : body) as ApiOutput<P>, message: body.message ?? '' };
}

/** The output of a call that must succeed (the query and action hooks are built on it). */
export async function callOk<P extends ApiPath>(
  path: P,
  data?: ApiInput<P>,
  options: RequestOptions = {},
): Promise<ApiOutput<P>> {
  return (await callSucceeded(path, data, options)).data;
}

export interface UploadOptions {
  /** Non-file form fields; objects are sent as JSON. */
  fields?: Record<string, unknown>;
  /** Files appended by field name. */
  files: Record<string, Blob>;
  /** Upload progress, 0 to 100. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
  silent?: boolean;
  /** Skip the generic coded-error notification (the caller shows its own). */
  quietCodes?: boolean;
}

/**
 * Multipart upload (docs/spec-notes.md#7-requests): form data, token header, 36,000,000 ms timeout, with upload
 * progress through XMLHttpRequest.
 */
export function upload<T extends { code: number; message?: string } = AnyEnvelope>(
  url: string,
  options: UploadOptions,
): Promise<T> {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) {
    if (value === undefined) continue;
    form.append(name, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  for (const [name, file] of Object.entries(options.files)) {
    form.append(name, file, file instanceof File ? file.name : name);
  }
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.withCredentials = true;
    xhr.timeout = timings.uploadTimeoutMs;
    for (const [name, value] of Object.entries(uploadHeaders())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && options.onProgress) {
        options.onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(httpFailure(xhr.status, bodyMessage(xhr.responseText), url, options.silent, true));
        return;
      }
      try {
        const body = JSON.parse(xhr.responseText) as T;
        resolve(handleEnvelope(body, { silent: options.silent || options.quietCodes, action: true }));
      } catch (error) {
        reject(
          error instanceof ApiError
            ? error
            : httpFailure(xhr.status, '返回内容不是有效的 JSON', url, options.silent, true),
        );
      }
    };
    xhr.onerror = () => reject(httpFailure(0, '网络连接失败，请检查网络后重试', url, options.silent, true));
    xhr.ontimeout = () => reject(httpFailure(0, '上传超时', url, options.silent, true));
    xhr.onabort = () => reject(new DOMException('上传已取消', 'AbortError'));
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** Finder upload (docs/spec-notes.md#8-answers-notices-and-the-session): "上传成功" on code 200, otherwise "上传失败". */
export async function uploadFinder(
  file: Blob,
  onProgress?: (percent: number) => void,
  signal?: AbortSignal,
): Promise<{ code: number; message?: string; data?: unknown }> {
  try {
    const body = await upload<{ code: number; message?: string; data?: unknown }>('/api/finder/single', {
      files: { file },
      onProgress,
      signal,
      quietCodes: true,
    });
    if (body.code === Code.OK) void notify('success', { title: '上传成功' });
    else void notify('error', { title: '上传失败', description: body.message }, { action: true });
    return body;
  } catch (error) {
    if (!(error instanceof ApiError) && !(error instanceof HttpError) && (error as Error)?.name !== 'AbortError') {
      void notify('error', { title: '上传失败' }, { action: true });
    }
    throw error;
  }
}
