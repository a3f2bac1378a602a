import { crc32 } from 'node:zlib';

/**
 * App packages made in the tests (no binary fixture is committed): zips with the entries that
 * make them an APK, AAB or IPA, and an APK whose AndroidManifest.xml is real binary XML.
 */

/** A stored (uncompressed) zip of these entries, as app packages are zip containers. */
export function makeZip(entries: { name: string; data: Uint8Array | string }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = Buffer.from(entry.data);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
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
