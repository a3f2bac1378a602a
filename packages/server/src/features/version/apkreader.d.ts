declare module '@devicefarmer/adbkit-apkreader' {
  /** The parts of adbkit-apkreader used here (it ships no types). */
  export default class ApkReader {
    static open(file: string | Buffer): Promise<ApkReader>;
    readManifest(options?: object): Promise<Record<string, unknown>>;
    readContent(path: string): Promise<Buffer>;
  }
}
