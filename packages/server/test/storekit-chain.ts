import { execFileSync } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A StoreKit 2 signing chain of the test's own (root → intermediate → leaf, ECDSA P-256, with
 * Apple's marker extensions), made with openssl as /work/shared/notes/storekit-test-chain.md
 * describes. Configure `rootDer` as the trusted root and `sign` payloads as the App Store would.
 */
export interface TestChain {
  rootDer: Buffer;
  /** A JWS (ES256, x5c = leaf, intermediate, root) over the payload. */
  sign(payload: object): string;
  /** The same, signed with another key than the leaf's (a forged signature). */
  signWithWrongKey(payload: object): string;
  /**
   * Signed by a second leaf of the same chain that is valid for one day only: with a `signedDate`
   * two or more days ahead, the chain had expired when the payload was signed.
   */
  signWithShortLivedLeaf(payload: object): string;
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** What a chain is made of, as JSON (so a test process can sign for a server another process started). */
export interface ChainMaterial {
  root: string;
  x5c: string[];
  shortX5c: string[];
  leafKey: string;
  shortKey: string;
  otherKey: string;
}

export function chainFrom(m: ChainMaterial): TestChain & { material: ChainMaterial } {
  const signWith = (pem: string, x5c: string[]) => (payload: object) => {
    const head = `${b64url(JSON.stringify({ alg: 'ES256', x5c }))}.${b64url(JSON.stringify(payload))}`;
    const signature = sign('sha256', Buffer.from(head), { key: createPrivateKey(pem), dsaEncoding: 'ieee-p1363' });
    return `${head}.${b64url(signature)}`;
  };
  return {
    material: m,
    rootDer: Buffer.from(m.root, 'base64'),
    sign: signWith(m.leafKey, m.x5c),
    signWithWrongKey: signWith(m.otherKey, m.x5c),
    signWithShortLivedLeaf: signWith(m.shortKey, m.shortX5c),
  };
}

export function makeTestChain(): TestChain & { material: ChainMaterial } {
  const dir = mkdtempSync(path.join(tmpdir(), 'storekit-'));
  try {
    const file = (name: string) => path.join(dir, name);
    const key = (name: string) => {
      const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
      const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
      writeFileSync(file(`${name}.key`), pem);
      return pem;
    };
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    key('root');
    const intKey = key('int');
    const leafKey = key('leaf');
    const shortKey = key('short');
    openssl(
      'req',
      '-x509',
      '-new',
      '-key',
      'root.key',
      '-subj',
      '/CN=Test Root',
      '-days',
      '3650',
      '-out',
      'root.pem',
      '-addext',
      'basicConstraints=critical,CA:TRUE',
    );
    writeFileSync(file('int.ext'), 'basicConstraints=critical,CA:TRUE\n1.2.840.113635.100.6.2.1=ASN1:NULL\n');
    writeFileSync(file('leaf.ext'), '1.2.840.113635.100.6.11.1=ASN1:NULL\n');
    writeFileSync(file('short.ext'), '1.2.840.113635.100.6.11.1=ASN1:NULL\n');
    for (const [name, ca, days] of [
      ['int', 'root', '3650'],
      ['leaf', 'int', '3650'],
      ['short', 'int', '1'],
    ] as const) {
      openssl('req', '-new', '-key', `${name}.key`, '-subj', `/CN=Test ${name}`, '-out', `${name}.csr`);
      openssl(
        'x509',
        '-req',
        '-in',
        `${name}.csr`,
        '-CA',
        `${ca}.pem`,
        '-CAkey',
        `${ca}.key`,
        '-CAcreateserial',
        '-days',
        days,
        '-extfile',
        `${name}.ext`,
        '-out',
        `${name}.pem`,
      );
    }
    const der = (name: string) => openssl('x509', '-in', `${name}.pem`, '-outform', 'DER').toString('base64');
    return chainFrom({
      root: der('root'),
      x5c: ['leaf', 'int', 'root'].map(der),
      shortX5c: ['short', 'int', 'root'].map(der),
      leafKey,
      shortKey,
      otherKey: intKey,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
