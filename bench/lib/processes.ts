import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A child process plus the tail of its output, for error messages. */
export interface Child {
  name: string;
  process: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<number | null>;
}

const running = new Set<Child>();
const exitHooks = new Set<() => void>();

/** Registers a synchronous clean-up (e.g. killing a browser) for when this process exits; returns the undo. */
export function onExit(hook: () => void): () => void {
  exitHooks.add(hook);
  return () => exitHooks.delete(hook);
}

/** Last resort: whatever happens, no child outlives this process. */
process.on('exit', () => {
  for (const child of running) child.process.kill('SIGKILL');
  for (const hook of exitHooks) {
    try {
      hook();
    } catch {
      // best effort while exiting
    }
  }
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping ${running.size} child process(es)`);
    stopAll().finally(() => process.exit(130));
  });
}

/** Starts a child whose stdout/stderr are kept (last 64 KB) rather than printed. */
export function start(
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; echo?: boolean } = {},
): Child {
  const proc = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (proc.pid === undefined) throw new Error(`could not start ${name} (${command})`);
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-65_536);
    if (options.echo) process.stderr.write(chunk);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const child: Child = {
    name,
    process: proc,
    pid: proc.pid,
    output: () => tail,
    exited: new Promise((resolve) => {
      proc.once('exit', (code) => {
        running.delete(child);
        resolve(code);
      });
      proc.once('error', () => {
        running.delete(child);
        resolve(null);
      });
    }),
  };
  running.add(child);
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stop(child: Child, graceMs = 5_000): Promise<void> {
  if (!running.has(child)) return;
  child.process.kill('SIGTERM');
  const timeout = sleep(graceMs).then(() => 'timeout' as const);
  if ((await Promise.race([child.exited, timeout])) === 'timeout') {
    child.process.kill('SIGKILL');
    await child.exited;
  }
}

export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((child) => stop(child)));
}

/** Runs a command to completion (inheriting the terminal); throws on a non-zero exit. */
export async function runToEnd(name: string, command: string, args: string[], cwd: string): Promise<void> {
  const child = start(name, command, args, { cwd, echo: true });
  const code = await child.exited;
  if (code !== 0) throw new Error(`${name} failed (exit ${code})`);
}

/** A TCP port nobody listens on right now, on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** Polls `check` until it returns true; fails early if the child exits, late after `timeoutMs`. */
export async function waitUntil(child: Child, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void child.exited.then(() => {
    exited = true;
  });
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${child.name} exited during start-up:\n${child.output()}`);
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`${child.name} not ready after ${timeoutMs / 1000} s:\n${child.output()}`);
}

/** Resident memory of a process in MB (VmRSS), or null when it is gone. */
export function rssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return kb ? Number(kb[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** CPU seconds (user + system, every thread) a process has used, from /proc; null off Linux. */
export function cpuSeconds(pid: number): number | null {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/**
 * CPU seconds of the PostgreSQL server processes on this machine (the bench's database backends
 * among them), per process: compare two readings with `cpuSince`, which counts only processes
 * alive at the second (a backend that exited takes its seconds with it).
 */
export function postgresCpu(): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
    } catch {
      continue;
    }
    seconds.set(Number(entry), cpuSeconds(Number(entry)) ?? 0);
  }
  return seconds;
}

/** CPU seconds used between two readings of postgresCpu(), by the processes alive at the second. */
export function cpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += Math.max(0, seconds - (before.get(pid) ?? 0));
  return total;
}
