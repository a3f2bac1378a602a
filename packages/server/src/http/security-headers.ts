import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/** Pages and stored files: helmet's defaults with the policy the web app needs. */
const pageHeaders: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      styleSrc: ["'self'", "'unsafe-inline'"], // antd injects its CSS at run time
      scriptSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  crossOriginEmbedderPolicy: false,
  hsts: false, // set by the TLS-terminating proxy, which knows whether HTTPS is in use
};

/**
 * API answers are JSON (or a spreadsheet download) that no browser should render, frame or keep:
 * the headers OWASP's REST cheat sheet asks for, without the page-only ones (they cost a fifth of
 * a small call's time in bytes and header handling, for nothing).
 */
const apiHeaders: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  hsts: false,
};

/**
 * Helmet decides the security headers; they are computed once at start-up and set on every answer.
 * (@fastify/helmet rebuilds helmet's middleware, Content-Security-Policy included, on every request.)
 * Nothing here varies per request: no CSP nonces.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  let failure: unknown;
  helmet(options)({} as never, recorder as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/** Sets the security headers and the request id on every answer (API, files, pages, errors). */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const page = securityHeaders(pageHeaders);
  const api = { ...securityHeaders(apiHeaders), 'cache-control': 'no-store' };
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? api : page);
    reply.header('x-request-id', request.id);
    done();
  });
}
