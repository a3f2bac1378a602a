/**
 * Who may name which table. The core tables are `CoreDatabase` in src/db/schema.ts; each feature owns
 * the tables of its `<F>Tables` interface (features/<f>/tables.ts). A source file of a feature may name
 * the core tables and its feature's own; plumbing (core, db, http, storage, ops) only the core ones;
 * anything else is a reach-in, allowed only by an entry of the allow-list (table-allow-list.ts).
 *
 * A table is named by a string literal that is the table (`'orders'`, `'orders.id'`, `'orders as o'`)
 * or by the text of a template (raw SQL: `from orders`, `join orders`, `update orders`, ...). A name
 * is a write when it is the first argument of insertInto, updateTable, deleteFrom, replaceInto or
 * mergeInto, or follows `insert into`, `update` or `delete from` in SQL; any other naming is a read.
 * Comments are not code and are skipped. Test files are not scanned: their setup writes any table.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Source {
  /** Relative to packages/server/src, with forward slashes. */
  file: string;
  text: string;
}

export interface Reference {
  file: string;
  line: number;
  table: string;
  owner: string;
  kind: 'read' | 'write';
}

export interface Allowance {
  /** A file, or a folder ending in `/`, relative to packages/server/src. */
  path: string;
  /** Tables it may read ('*': every feature's, for a declared read model). */
  reads?: string[] | '*';
  /** Tables it may write (and so read). */
  writes?: string[];
  /** One line: why this reach-in is the right shape. */
  why: string;
}

export const srcDir = path.join(import.meta.dirname, '../src');

/** Every non-test source of the server (.ts, .mts and the workers' .mjs). */
export function serverSources(dir = srcDir): Source[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return serverSources(full);
    if (!/\.(m?ts|mjs)$/.test(name) || /\.(test|d)\.m?ts$/.test(name)) return [];
    return [{ file: path.relative(srcDir, full).split(path.sep).join('/'), text: readFileSync(full, 'utf8') }];
  });
}

/** The members of `interface <name> { ... }` (table name → nothing more is needed). */
function membersOf(text: string, name: RegExp): string[] {
  const body = text.match(new RegExp(`interface ${name.source}\\s*\\{([^}]*)\\}`))?.[1];
  return body ? [...body.matchAll(/^\s*(\w+)\s*:/gm)].map((m) => m[1]) : [];
}

export interface Ownership {
  core: Set<string>;
  /** Table → the feature that declares it. */
  owner: Map<string, string>;
  /** Problems with the declarations themselves (a table declared twice, or outside `<F>Tables`). */
  problems: string[];
}

/** Reads the declarations: db/schema.ts's CoreDatabase and each features/<f>/tables.ts's `<F>Tables`. */
export function ownership(sources: Source[]): Ownership {
  const schema = sources.find((s) => s.file === 'db/schema.ts');
  const core = new Set(schema ? membersOf(schema.text, /CoreDatabase/) : []);
  const owner = new Map<string, string>();
  const problems: string[] = [];
  for (const { file, text } of sources) {
    const feature = file.match(/^features\/([^/]+)\/tables\.ts$/)?.[1];
    if (!feature) continue;
    // A table merged into Database directly would belong to no one.
    const direct = membersOf(text, /Database(?:\s+extends\s+\w+)?/);
    if (direct.length) problems.push(`${file}: ${direct.join(', ')} merged into Database outside ${feature}'s *Tables`);
    for (const table of membersOf(text, /\w+Tables/)) {
      const before = owner.get(table) ?? (core.has(table) ? 'core' : undefined);
      if (before) problems.push(`${file}: ${table} is already declared by ${before}`);
      else owner.set(table, feature);
    }
  }
  return { core, owner, problems };
}

/** The zone a file belongs to: its feature's name, or '' for plumbing. */
export const featureOf = (file: string) => file.match(/^features\/([^/]+)\//)?.[1] ?? '';

interface Piece {
  text: string;
  offset: number;
  template: boolean;
}

/** The string literals and template texts of TypeScript source, outside comments. */
export function literals(code: string): Piece[] {
  const pieces: Piece[] = [];
  // Scans code from i; with `inExpression`, stops at the `}` closing a template's `${`.
  const scan = (start: number, inExpression: boolean): number => {
    let depth = 0;
    let last = '';
    let i = start;
    while (i < code.length) {
      const c = code[i];
      if (c === '/' && code[i + 1] === '/') i = code.indexOf('\n', i) === -1 ? code.length : code.indexOf('\n', i);
      else if (c === '/' && code[i + 1] === '*') i = code.indexOf('*/', i + 2) + 2;
      else if (c === '/' && (last === '' || '(,=:[!&|?{};'.includes(last))) i = skipRegex(i);
      else if (c === "'" || c === '"') {
        let j = i + 1;
        while (code[j] !== c) j += code[j] === '\\' ? 2 : 1;
        pieces.push({ text: code.slice(i + 1, j), offset: i + 1, template: false });
        i = j + 1;
        last = c;
      } else if (c === '`') {
        i = template(i + 1);
        last = c;
      } else {
        if (c === '{') depth += 1;
        if (c === '}') {
          if (inExpression && depth === 0) return i;
          depth -= 1;
        }
        if (!/\s/.test(c)) last = c;
        i += 1;
      }
    }
    return i;
  };
  const template = (start: number): number => {
    let from = start;
    let i = start;
    while (code[i] !== '`') {
      if (code[i] === '\\') i += 2;
      else if (code[i] === '$' && code[i + 1] === '{') {
        pieces.push({ text: code.slice(from, i), offset: from, template: true });
        i = scan(i + 2, true) + 1;
        from = i;
      } else i += 1;
    }
    pieces.push({ text: code.slice(from, i), offset: from, template: true });
    return i + 1;
  };
  const skipRegex = (start: number): number => {
    let i = start + 1;
    let inClass = false;
    while (i < code.length && (inClass || code[i] !== '/')) {
      if (code[i] === '\\') i += 1;
      else if (code[i] === '[') inClass = true;
      else if (code[i] === ']') inClass = false;
      i += 1;
    }
    return i + 1;
  };
  scan(0, false);
  return pieces;
}

const writeCall = /\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*$/;
const sqlName = /\b(insert\s+into|delete\s+from|update|from|join|into|on|table|references)\s+"?(\w+)/gi;

/** Every naming of a table that the file's zone does not own. */
export function foreignReferences(source: Source, own: Ownership): Reference[] {
  const zone = featureOf(source.file);
  const found: Reference[] = [];
  const lineAt = (offset: number) => source.text.slice(0, offset).split('\n').length;
  const note = (table: string, kind: Reference['kind'], offset: number) => {
    const owner = own.owner.get(table);
    if (owner && owner !== zone) found.push({ file: source.file, line: lineAt(offset), table, owner, kind });
  };
  for (const piece of literals(source.text)) {
    const whole = piece.text.match(/^(\w+)(?:\.\w+|\s+as\s+\w+)?$/);
    if (whole && !piece.template) {
      const before = source.text.slice(Math.max(0, piece.offset - 40), piece.offset - 1);
      note(whole[1], writeCall.test(before) ? 'write' : 'read', piece.offset);
    }
    if (!piece.template && whole) continue;
    for (const m of piece.text.matchAll(sqlName)) {
      const keyword = m[1].toLowerCase().replace(/\s+/g, ' ');
      const kind = keyword === 'insert into' || keyword === 'delete from' || keyword === 'update' ? 'write' : 'read';
      note(m[2], kind, piece.offset + (m.index ?? 0));
    }
  }
  return found;
}

const covers = (entry: Allowance, ref: Reference) =>
  (entry.path.endsWith('/') ? ref.file.startsWith(entry.path) : ref.file === entry.path) &&
  (entry.writes?.includes(ref.table) ||
    (ref.kind === 'read' && (entry.reads === '*' || entry.reads?.includes(ref.table))));

/** The references no allow-list entry covers, and the entries that cover nothing (stale). */
export function judge(sources: Source[], allowList: Allowance[]) {
  const own = ownership(sources);
  const references = sources.flatMap((s) => foreignReferences(s, own));
  const refused = references.filter((ref) => !allowList.some((entry) => covers(entry, ref)));
  const stale = allowList.filter((entry) => !references.some((ref) => covers(entry, ref)));
  return { own, references, refused, stale };
}
