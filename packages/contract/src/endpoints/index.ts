import type { z } from 'zod';
import type { EndpointDef, EndpointRegistry } from '../endpoint';

/**
 * Every other file in this folder is one feature's contract entry, and its default export is
 * that feature's endpoints: adding a file adds them to the table (no list to keep by hand). A
 * feature's `<feature>.rules.ts` beside it holds its field limits (zod-free, for the web too).
 */
const entries = import.meta.glob<{ default: Record<string, EndpointDef> }>(['./*.ts', '!./index.ts', '!./*.rules.ts'], {
  eager: true,
});

function collect(): Endpoints {
  const table: Record<string, EndpointDef> = {};
  for (const [file, entry] of Object.entries(entries)) {
    for (const [path, def] of Object.entries(entry.default ?? {})) {
      if (!path.startsWith('/api/')) throw new Error(`${file}: ${path} is not under /api/`);
      if (path in table) throw new Error(`${file}: ${path} is declared twice`);
      table[path] = def;
    }
  }
  return table as unknown as Endpoints;
}

/** Every API endpoint. The server registers routes from this table and nothing else. */
export const endpoints: Endpoints = collect();

/** The table as [path, definition] pairs, for code that walks every endpoint (OpenAPI, audit labels, tests). */
export const endpointEntries = Object.entries(endpoints) as [ApiPath, EndpointDef][];

export type Endpoints = EndpointRegistry;
export type ApiPath = keyof Endpoints & `/api/${string}`;
type Def<P extends ApiPath> = Endpoints[P] extends EndpointDef ? Endpoints[P] : never;
export type ApiInput<P extends ApiPath> = z.input<Def<P>['input']>;
export type ApiOutput<P extends ApiPath> = z.output<Def<P>['output']>;

/** The full answer of a call: output under `data`, or spread at the root for `placement: 'root'`. */
export type ApiResponse<P extends ApiPath> = Endpoints[P] extends { placement: 'root' }
  ? { code: number; message: string } & Partial<ApiOutput<P>>
  : { code: number; message: string; data?: ApiOutput<P> };
