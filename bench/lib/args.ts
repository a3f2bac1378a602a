/** A tiny flag parser: `--name value`, `--name=value` and bare `--flag` (true). */
export function parseArgs(argv: string[]): Map<string, string | true> {
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}" (flags look like --users 1000)`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      flags.set(arg.slice(2), next);
      i++;
    } else {
      flags.set(arg.slice(2), true);
    }
  }
  return flags;
}

/** A non-negative integer flag; accepts 1_000_000, 1e6, 1000k and 1m. */
export function intFlag(flags: Map<string, string | true>, name: string, fallback: number): number {
  const raw = flags.get(name);
  if (raw === undefined) return fallback;
  if (raw === true) throw new Error(`--${name} needs a number`);
  const match = /^(\d+(?:\.\d+)?(?:e\d+)?)([km]?)$/i.exec(raw.replaceAll('_', ''));
  const value = match ? Number(match[1]) * ({ k: 1e3, m: 1e6 }[match[2].toLowerCase()] ?? 1) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`--${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

export function stringFlag(flags: Map<string, string | true>, name: string): string | undefined {
  const raw = flags.get(name);
  if (raw === true) throw new Error(`--${name} needs a value`);
  return raw;
}

/** Fails on flags the command does not know, so a typo never silently runs the defaults. */
export function assertKnown(flags: Map<string, string | true>, known: readonly string[]): void {
  for (const name of flags.keys()) {
    if (!known.includes(name))
      throw new Error(`unknown flag --${name} (known: ${known.map((k) => `--${k}`).join(', ')})`);
  }
}
