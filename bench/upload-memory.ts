/**
 * `node --import tsx upload-memory.ts [--size-mb 1024]` (from bench/): the server's resident memory
 * while it takes one large app package through /api/files/update. Makes a zip on disk that is an
 * APK by its entries (a small AndroidManifest.xml, then one stored entry of the given size), starts
 * the built server on a fresh SQLite folder, streams the file up as multipart form data, samples
 * the server's VmRSS every 50 ms, and prints the peak. Budget (issue 8): under 300 MB for 1 GB.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { crc32 } from 'node:zlib';
import { callOk } from './lib/api';
import { admin, sha256hex } from './lib/fixtures';
import { freePort, rssMb, start, stop, waitUntil } from './lib/processes';

const args = process.argv.slice(2);
const sizeMb = Number(args[args.indexOf('--size-mb') + 1] || 1024);
const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'appdesk-upload-bench-'));

/** Writes a stored zip: AndroidManifest.xml, then `bytes` of filler in assets/big.bin, streamed. */
async function writeBigApk(file: string, bytes: number) {
  const out = createWriteStream(file);
  const write = (b: Buffer) => new Promise<void>((resolve) => (out.write(b) ? resolve() : out.once('drain', resolve)));
  const entries: { name: Buffer; crc: number; size: number; offset: number }[] = [];
  let offset = 0;
  const header = (name: Buffer, crc: number, size: number) => {
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(size, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(name.length, 26);
    return h;
  };
  const manifest = Buffer.from('<manifest package="com.appdesk.tailor"/>');
  const small = { name: Buffer.from('AndroidManifest.xml'), crc: crc32(manifest), size: manifest.length, offset };
  await write(Buffer.concat([header(small.name, small.crc, small.size), small.name, manifest]));
  entries.push(small);
  offset += 30 + small.name.length + manifest.length;
  // The filler's CRC first (a second pass would double the disk reads), then the entry itself.
  const chunk = Buffer.alloc(1024 * 1024, 0x5a);
  let crc = 0;
  for (let i = 0; i < bytes / chunk.length; i += 1) crc = crc32(chunk, crc);
  const big = { name: Buffer.from('assets/big.bin'), crc, size: bytes, offset };
  await write(Buffer.concat([header(big.name, big.crc, big.size), big.name]));
  for (let i = 0; i < bytes / chunk.length; i += 1) await write(chunk);
  entries.push(big);
  offset += 30 + big.name.length + bytes;
  const central = entries.map((e) => {
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt32LE(e.crc, 16);
    c.writeUInt32LE(e.size, 20);
    c.writeUInt32LE(e.size, 24);
    c.writeUInt16LE(e.name.length, 28);
    c.writeUInt32LE(e.offset, 42);
    return Buffer.concat([c, e.name]);
  });
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  await write(Buffer.concat([directory, end]));
  out.end();
  await finished(out);
}

async function main() {
  const bytes = sizeMb * 1024 * 1024;
  if (bytes >= 4 * 1024 ** 3) throw new Error('this zip writer is not zip64: keep the size under 4 GB');
  const file = path.join(work, 'big.apk');
  console.log(`writing a ${sizeMb} MB package to ${file}…`);
  await writeBigApk(file, bytes);
  const size = statSync(file).size;

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = path.join(work, 'data');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const server = start('server', process.execPath, [path.join(root, 'packages/server/dist/main.js')], {
    env,
    cwd: work,
  });
  try {
    await waitUntil(server, async () => {
      await callOk(base, '/api/allocation/fetch');
      return true;
    });
    await callOk(base, '/api/allocation/init', {
      phone: admin.phone,
      password: sha256hex(admin.password),
      title: admin.title,
      slogen: admin.slogen,
    });
    const { token } = await callOk(base, '/api/users/login', {
      phone: admin.phone,
      password: sha256hex(admin.password),
    });
    const idle = rssMb(server.pid) ?? 0;

    let peak = idle;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(server.pid) ?? 0);
    }, 50);
    const boundary = `----appdesk${Date.now()}`;
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    async function* body() {
      yield head;
      for await (const part of createReadStream(file, { highWaterMark: 1024 * 1024 })) yield part as Buffer;
      yield tail;
    }
    const started = Date.now();
    const response = await fetch(`${base}/api/files/update`, {
      method: 'POST',
      headers: {
        token,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
      body: Readable.toWeb(Readable.from(body())) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const answer = (await response.json()) as {
      code: number;
      message: string;
      file?: { fileV: { size: number; sha256: string } };
    };
    const seconds = (Date.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, rssMb(server.pid) ?? 0);
    console.log(
      JSON.stringify(
        {
          sizeMb,
          code: answer.code,
          message: answer.message,
          storedBytes: answer.file?.fileV.size,
          seconds: Math.round(seconds * 10) / 10,
          mbPerSecond: Math.round(sizeMb / seconds),
          rssIdleMb: idle,
          rssPeakMb: peak,
          budgetMb: 300,
          pass: answer.code === 200 && peak < 300,
        },
        null,
        2,
      ),
    );
    if (answer.code !== 200 || peak >= 300) process.exitCode = 1;
  } finally {
    await stop(server);
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
