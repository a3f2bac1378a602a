import type { FastifyRequest } from 'fastify';

/**
 * Runs `answer` once the request's body has arrived whole, read and dropped. An answer sent while
 * the body is still coming, on a connection then closed, resets it: a proxy still writing the body
 * (nginx) then answers 502 instead, and cannot tell whether it may send the request elsewhere. A body
 * announced larger than `capBytes`, or of unknown length, is not waited for.
 */
export function afterBody<T>(
  request: FastifyRequest,
  answer: () => T,
  capBytes = Number.POSITIVE_INFINITY,
): Promise<T> {
  const raw = request.raw;
  const announced = Number(raw.headers['content-length']);
  if (raw.complete || raw.readableEnded || !(announced <= capBytes)) return Promise.resolve(answer());
  return new Promise<T>((resolve) => {
    const done = () => resolve(answer());
    raw.once('end', done);
    raw.once('close', () => raw.off('end', done));
    raw.resume();
  });
}
