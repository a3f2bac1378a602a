// The baseline: a bare Fastify 5 server with one POST JSON route answering like AppDesk does.
// It shows what this machine, Node and Fastify can do at best; AppDesk's figures are read as a
// ratio of it. Started by run.ts as a child process: PORT=... node bench/baseline-server.mjs
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/api/baseline', async () => ({ code: 200, message: '成功', data: { ok: true } }));

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => app.close().then(() => process.exit(0)));
}
