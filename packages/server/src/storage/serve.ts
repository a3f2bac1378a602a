import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { LocalStorage } from './local';
import { keyOfUrl } from './references';
import type { FileStorage } from './types';

const INLINE = /\.(png|jpe?g|gif|webp|mp3|wav|ogg|aac|m4a|flac)$/i;
const types: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  aac: 'audio/aac',
  m4a: 'audio/mp4',
  flac: 'audio/flac',
  apk: 'application/vnd.android.package-archive',
};

/** Headers of every served stored file: never sniffed or run, cached for good (keys never change). */
function fileHeaders(set: (name: string, value: string) => unknown, file: string) {
  set('X-Content-Type-Options', 'nosniff');
  set('Content-Security-Policy', "default-src 'none'; sandbox");
  set('Cache-Control', 'public, max-age=31536000, immutable');
  // Only images and audio display inline; anything else downloads.
  if (!INLINE.test(file)) set('Content-Disposition', 'attachment');
}

/**
 * `GET /files/<key>`: from the data folder through @fastify/static (ranges, ETags), or on S3
 * streamed through the server from the object store.
 */
export async function registerFileRoutes(app: FastifyInstance, storage: FileStorage): Promise<void> {
  if (storage instanceof LocalStorage) {
    await app.register(fastifyStatic, {
      root: storage.root,
      prefix: '/files/',
      decorateReply: false,
      index: false,
      setHeaders: (res, filePath) => fileHeaders((name, value) => res.header(name, value), filePath),
    });
    return;
  }
  app.get('/files/*', async (request, reply) => {
    const key = keyOfUrl(request.url.split('?')[0]);
    const found = key ? await storage.read(key) : undefined;
    if (!key || !found) return reply.status(404).send({ code: 404, message: '文件不存在', data: null });
    fileHeaders((name, value) => reply.header(name, value), key);
    reply.header('Content-Type', types[key.split('.').pop() ?? ''] ?? 'application/octet-stream');
    if (found.size !== undefined) reply.header('Content-Length', found.size);
    return reply.send(found.body);
  });
}
