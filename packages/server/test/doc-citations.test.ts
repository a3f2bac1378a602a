/**
 * No file in the repository may cite a document that is not in it: the design and product
 * documents the code was once written against are summarised in docs/ (architecture.md,
 * spec-notes.md), and a citation must point there, at a file and heading that exist.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

// Spelled in pieces so that this file does not cite them itself.
const outsideDocuments: [RegExp, string][] = [
  [new RegExp(['DESIGN', '\\.md'].join('')), 'a design document that is not in the repository'],
  [new RegExp(['product', '-spec'].join('')), 'a product specification that is not in the repository'],
  [new RegExp(['spec sections?', ' \\d'].join(''), 'i'), 'a specification section: cite docs/spec-notes.md#… instead'],
  [new RegExp(['spec', ' §'].join('')), 'a specification section: cite docs/spec-notes.md#… instead'],
  [new RegExp(['\\.\\./', 'shared/'].join('')), 'a folder outside the repository'],
];

/** `docs/<file>.md` with an optional `#heading`, as code comments cite it (from the repository root). */
const docsCitation = /(?<![\w./-])docs\/[\w./-]+\.md(?:#[\w%-]+)?/g;
/** A README section named in quotes, as comments cite it: `README "Configuration"`, `bench/README.md "…"`. */
const readmeSection = /(?<![\w./-])((?:[\w-]+\/)*README)(?:\.md)? "([^"]+)"/g;
/** A relative Markdown link target: `](path#anchor)`. */
const markdownLink = /\]\(([^)\s]+)\)/g;

const skippedExtensions =
  /\.(png|jpe?g|gif|webp|ico|svg|woff2?|ttf|otf|apk|aab|ipa|zip|gz|br|mp3|wav|ogg|pem|der|cer|sqlite)$/i;

function trackedTextFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  return listed
    .split('\0')
    .filter((file) => file && !skippedExtensions.test(file) && file !== 'package-lock.json')
    .filter((file) => existsSync(path.join(root, file)) && statSync(path.join(root, file)).size < 2_000_000);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (!found) {
    const text = readFileSync(file, 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    found = new Set([...text.matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => slug(m[1] ?? '')));
    anchorsOf.set(file, found);
  }
  return found;
}

/** Why `target` (a path from the repository root, maybe with `#anchor`) is not there, or null. */
function missing(target: string): string | null {
  const [file = '', anchor] = target.split('#');
  const full = path.join(root, decodeURIComponent(file));
  if (!existsSync(full)) return 'no such file';
  if (anchor && full.endsWith('.md') && !anchors(full).has(decodeURIComponent(anchor).toLowerCase()))
    return `no heading #${anchor}`;
  return null;
}

function problems(): string[] {
  const found: string[] = [];
  for (const file of trackedTextFiles()) {
    const text = readFileSync(path.join(root, file), 'utf8');
    const lines = text.split('\n');
    lines.forEach((line, index) => {
      const at = `${file}:${index + 1}`;
      for (const [pattern, what] of outsideDocuments) {
        if (pattern.test(line)) found.push(`${at} cites ${what}: ${line.trim().slice(0, 120)}`);
      }
      for (const match of line.matchAll(docsCitation)) {
        const why = missing(match[0]);
        if (why) found.push(`${at} cites ${match[0]}: ${why}`);
      }
      for (const match of line.matchAll(readmeSection)) {
        const target = `${match[1]}.md#${slug(match[2] ?? '')}`;
        const why = missing(target);
        if (why) found.push(`${at} cites ${match[0]}: ${why}`);
      }
      if (!file.endsWith('.md')) return;
      for (const match of line.matchAll(markdownLink)) {
        const link = match[1] ?? '';
        if (/^[a-z][a-z+.-]*:/i.test(link)) continue; // http:, mailto:, …
        const target = link.startsWith('#')
          ? `${file}${link}`
          : path.posix.normalize(path.posix.join(path.posix.dirname(file), link));
        if (target.startsWith('..')) {
          found.push(`${at} links outside the repository: ${link}`);
          continue;
        }
        const why = missing(target);
        if (why) found.push(`${at} links to ${link}: ${why}`);
      }
    });
  }
  return [...new Set(found)];
}

describe('citations of documents', () => {
  it('reads heading anchors and README citations as GitHub and comments write them', () => {
    expect(slug('8. Answers, notices and the session')).toBe('8-answers-notices-and-the-session');
    expect(slug('Node.js versions')).toBe('nodejs-versions');
    expect(slug('`npm test`')).toBe('npm-test');
    expect(
      [...'see README "Configuration" and bench/README.md "Reading the figures"'.matchAll(readmeSection)].map((m) =>
        m.slice(1),
      ),
    ).toEqual([
      ['README', 'Configuration'],
      ['bench/README', 'Reading the figures'],
    ]);
  });

  it('every tracked file cites only documents, files and headings that are in the repository', () => {
    expect(problems()).toEqual([]);
  });
});
