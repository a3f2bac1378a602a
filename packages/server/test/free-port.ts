import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';

/** A loopback port nothing listens on now (asked of the kernel, so parallel runs never pick the same). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
