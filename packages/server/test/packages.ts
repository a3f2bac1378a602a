import { crc32, deflateRawSync } from 'node:zlib';

/**
 * App packages made in the tests (no binary fixture is committed): zips with the entries that
 * make them an APK, AAB or IPA, and an APK whose AndroidManifest.xml is real binary XML.
 */

/**
 * One entry of a test zip; `deflate` compresses it, `declaredSize` makes the zip lie about its size,
 * `truncate` keeps only that many of its stored bytes.
 */
export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
  deflate?: boolean;
  declaredSize?: number;
  truncate?: number;
}

/** A zip of these entries (stored unless `deflate`), as app packages are zip containers. */
export function makeZip(entries: ZipEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const plain = Buffer.from(entry.data);
    const data = (entry.deflate ? deflateRawSync(plain) : plain).subarray(0, entry.truncate);
    const method = entry.deflate ? 8 : 0;
    const size = entry.declaredSize ?? plain.length;
    const crc = crc32(plain);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/**
 * A zip whose central directory names `count` entries (ZIP64 past 65,535): `first` and then
 * count - 1 more names pointing at its data, so the file stays small while its directory is huge.
 */
export function zipWithDirectoryOf(count: number, first: ZipEntry): Uint8Array {
  const single = Buffer.from(makeZip([first]));
  const end = single.length - 22;
  const centralSize = single.readUInt32LE(end + 12);
  const localEnd = single.readUInt32LE(end + 16);
  const local = single.subarray(0, localEnd);
  const firstCentral = single.subarray(localEnd, localEnd + centralSize);
  const others: Buffer[] = [];
  for (let i = 1; i < count; i++) {
    const name = Buffer.from(`r/${i.toString(36)}`, 'utf8');
    const central = Buffer.from(firstCentral.subarray(0, 46));
    central.writeUInt16LE(name.length, 28);
    others.push(central, name);
  }
  const directory = Buffer.concat([firstCentral, ...others]);
  const zip64End = Buffer.alloc(56);
  zip64End.writeUInt32LE(0x06064b50, 0);
  zip64End.writeBigUInt64LE(44n, 4);
  zip64End.writeUInt16LE(45, 12);
  zip64End.writeUInt16LE(45, 14);
  zip64End.writeBigUInt64LE(BigInt(count), 24);
  zip64End.writeBigUInt64LE(BigInt(count), 32);
  zip64End.writeBigUInt64LE(BigInt(directory.length), 40);
  zip64End.writeBigUInt64LE(BigInt(local.length), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(local.length + directory.length), 8);
  locator.writeUInt32LE(1, 16);
  const classic = Buffer.alloc(22);
  classic.writeUInt32LE(0x06054b50, 0);
  classic.writeUInt16LE(0xffff, 8);
  classic.writeUInt16LE(0xffff, 10);
  classic.writeUInt32LE(0xffffffff, 12);
  classic.writeUInt32LE(0xffffffff, 16);
  return new Uint8Array(Buffer.concat([local, directory, zip64End, locator, classic]));
}

/** The smallest zip that is an APK by its entries (a manifest at the root), for upload tests. */
export const tinyApk = makeZip([
  { name: 'AndroidManifest.xml', data: '<manifest package="com.appdesk.tailor"/>' },
  { name: 'classes.dex', data: 'dex\n035\0' },
]);

type Attr = { name: string; string?: string; int?: number; reference?: number };

/** Android's binary XML (AXML) of a manifest: one <manifest> with an <application> inside, as aapt writes it. */
export function binaryManifest(manifest: {
  package: string;
  versionCode: number;
  versionName: string;
  iconRef?: number;
}) {
  const strings = ['', 'manifest', 'application', 'package', 'versionCode', 'versionName', 'icon', 'label'];
  const index = (s: string) => {
    let i = strings.indexOf(s);
    if (i < 0) i = strings.push(s) - 1;
    return i;
  };
  const element = (name: string, attrs: Attr[]) => {
    const body = Buffer.alloc(20 + attrs.length * 20);
    body.writeInt32LE(-1, 0);
    body.writeInt32LE(index(name), 4);
    body.writeUInt16LE(20, 8);
    body.writeUInt16LE(20, 10);
    body.writeUInt16LE(attrs.length, 12);
    attrs.forEach((attr, n) => {
      const at = 20 + n * 20;
      body.writeInt32LE(-1, at);
      body.writeInt32LE(index(attr.name), at + 4);
      body.writeInt32LE(attr.string === undefined ? -1 : index(attr.string), at + 8);
      body.writeUInt16LE(8, at + 12);
      const [type, data] =
        attr.string !== undefined
          ? [0x03, index(attr.string)]
          : attr.reference !== undefined
            ? [0x01, attr.reference]
            : [0x10, attr.int ?? 0];
      body.writeUInt8(type, at + 15);
      body.writeUInt32LE(data >>> 0, at + 16);
    });
    return chunk(0x0102, 16, Buffer.concat([lineAndComment(), body]));
  };
  const end = (name: string) => {
    const body = Buffer.alloc(8);
    body.writeInt32LE(-1, 0);
    body.writeInt32LE(index(name), 4);
    return chunk(0x0103, 16, Buffer.concat([lineAndComment(), body]));
  };
  const elements = [
    element('manifest', [
      { name: 'versionCode', int: manifest.versionCode },
      { name: 'versionName', string: manifest.versionName },
      { name: 'package', string: manifest.package },
    ]),
    element('application', [{ name: 'icon', reference: manifest.iconRef ?? 0x7f0d0000 }]),
    end('application'),
    end('manifest'),
  ];
  return new Uint8Array(chunk(0x0003, 8, Buffer.concat([stringPool(strings), ...elements])));
}

function lineAndComment() {
  const b = Buffer.alloc(8);
  b.writeUInt32LE(1, 0);
  b.writeInt32LE(-1, 4);
  return b;
}

function chunk(type: number, headerSize: number, body: Buffer) {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(headerSize, 2);
  head.writeUInt32LE(8 + body.length, 4);
  return Buffer.concat([head, body]);
}

function stringPool(strings: string[]) {
  const encoded = strings.map((s) => {
    const bytes = Buffer.from(s, 'utf8');
    return Buffer.concat([Buffer.from([[...s].length, bytes.length]), bytes, Buffer.from([0])]);
  });
  const offsets = Buffer.alloc(strings.length * 4);
  let at = 0;
  encoded.forEach((e, i) => {
    offsets.writeUInt32LE(at, i * 4);
    at += e.length;
  });
  let data = Buffer.concat(encoded);
  if (data.length % 4) data = Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
  const header = Buffer.alloc(20);
  header.writeUInt32LE(strings.length, 0);
  header.writeUInt32LE(0, 4);
  header.writeUInt32LE(0x100, 8);
  header.writeUInt32LE(28 + offsets.length, 12);
  header.writeUInt32LE(0, 16);
  return chunk(0x0001, 28, Buffer.concat([header, offsets, data]));
}

/** A binary manifest whose parser never ends: a chunk of size 0 sends it back to where it started. */
export function loopingManifest(): Uint8Array {
  const empty = Buffer.alloc(8);
  empty.writeUInt16LE(0x0000, 0);
  empty.writeUInt16LE(8, 2);
  return new Uint8Array(chunk(0x0003, 8, empty));
}

/**
 * A binary manifest of a few MB whose string pool names one 32 KB string `count` times: a parser
 * that builds each string anew needs count × 32 KB of memory.
 */
export function stringBombManifest(count: number): Uint8Array {
  const text = Buffer.alloc(0x7fff, 'a');
  const length = Buffer.from([0x80 | (text.length >> 8), text.length & 0xff]);
  const data = Buffer.concat([length, length, text, Buffer.from([0, 0, 0, 0])]);
  const header = Buffer.alloc(20);
  header.writeUInt32LE(count, 0);
  header.writeUInt32LE(0x100, 8);
  header.writeUInt32LE(28 + count * 4, 12);
  const pool = chunk(0x0001, 28, Buffer.concat([header, Buffer.alloc(count * 4), data]));
  return new Uint8Array(chunk(0x0003, 8, pool));
}

/** A 1x1 PNG, the launcher icon of the APKs made here. */
const iconPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** An APK a parser can read: binary manifest, code and a launcher icon; `pad` bytes make it larger. */
export function makeApk(manifest: { package: string; versionCode: number; versionName: string }, pad = 0) {
  return makeZip([
    { name: 'AndroidManifest.xml', data: binaryManifest(manifest) },
    { name: 'classes.dex', data: `dex\n035\0${'\0'.repeat(pad)}` },
    { name: 'res/mipmap-xxhdpi-v4/ic_launcher.png', data: iconPng },
    { name: 'res/mipmap-mdpi-v4/ic_launcher.png', data: iconPng },
  ]);
}
