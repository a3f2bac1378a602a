import type { z } from 'zod';
import type { UploadKind } from './constants';

/** Who may call an endpoint; the server enforces it (DESIGN.md "The API contract"). */
export type Access = 'public' | 'user' | 'admin';

export interface EndpointDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  access: Access;
  /** Chinese one-line summary, shown in the OpenAPI document. */
  summary: string;
  /** JSON body, or for uploads the non-file form fields (each sent as JSON). */
  input: I;
  /** What the answer carries. */
  output: O;
  /**
   * Where the output goes in the envelope: `data` (default) or `root`, spread beside
   * code and message, for the calls whose fields the spec places there.
   */
  placement?: 'data' | 'root';
  /** Multipart upload: the form field carrying the file and the kind of file accepted. */
  upload?: { field: string; kind: UploadKind };
  /** The answer is a file download (the whole filtered list as .xlsx), not the JSON envelope. */
  download?: 'xlsx';
}

export function endpoint<I extends z.ZodType, O extends z.ZodType>(def: EndpointDef<I, O>): EndpointDef<I, O> {
  return def;
}

/** The common answer shape. */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data?: T;
}
