// The reliability suite drives real server processes on 127.0.0.1: started with an environment
// and a role, probed, killed. It runs with `npm run test:reliability` (which sets
// BIZCHECK_RELIABILITY=1); under plain `npm test` its files report themselves skipped, so the
// everyday suite stays fast. Parts that need PostgreSQL skip without TEST_DATABASE_URL.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { freePort } from '../../bench/lib.ts';
import type { Role } from '../../src/config.ts';
import { checkDigitOf } from '../../src/domain/bizno.ts';
import { openStore } from '../../src/store/open.ts';
import { PostgresStore } from '../../src/store/postgres.ts';
import type { Store } from '../../src/store/store.ts';
import { PG_URL } from '../helpers/stores.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/main.ts');
const CLI = path.resolve(import.meta.dirname, '../../bin/bizcheck.js');
export const RELIABILITY = process.env.BIZCHECK_RELIABILITY === '1';

/** describe() that runs only in the reliability run, and (with needsPostgres) only with TEST_DATABASE_URL. */
export function reliabilitySuite(name: string, opts: { needsPostgres?: boolean }, fn: () => void): void {
  if (!RELIABILITY) return void describe(name, () => test('reliability suite', { skip: 'runs with npm run test:reliability' }, () => {}));
  if (opts.needsPostgres && !PG_URL) return void describe(name, () => test('on PostgreSQL', { skip: 'TEST_DATABASE_URL not set' }, () => {}));
  describe(name, fn);
}

/** A database for one test file: a fresh PostgreSQL schema or a temp folder, with a store the test itself uses. */
export interface TestDb {
  kind: 'sqlite' | 'postgres';
  env: Record<string, string>;
  store: Store;
  dataDir: string;
  cleanup(): Promise<void>;
}

export async function openTestDb(kind: 'sqlite' | 'postgres'): Promise<TestDb> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-rel-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const config = kind === 'postgres' ? { kind, url: PG_URL!, schema } as const : { kind, file: path.join(dataDir, 'bizcheck.db') } as const;
  // migrated before any server starts, so the servers race for nothing
  const store = await openStore(config);
  return {
    kind,
    store,
    dataDir,
    env: { DATA_DIR: dataDir, ...(kind === 'postgres' ? { DATABASE_URL: PG_URL!, DATABASE_SCHEMA: schema } : { DATABASE_URL: '' }) },
    async cleanup() {
      await store.close();
      if (kind === 'postgres') {
        const s = new PostgresStore({ url: PG_URL!, schema });
        await s.dropSchema();
        await s.close();
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerProcess {
  name: string;
  url: string;
  proc: ChildProcess;
  /** the last 20 kB of its stderr, for failure messages */
  errors(): string;
  /** the last 20 kB of its stdout and stderr together (JSON log lines) */
  output(): string;
  alive(): boolean;
  /** SIGKILL, and wait for the exit */
  kill(): Promise<void>;
  /** SIGTERM (graceful), SIGKILL after 10 s */
  stop(): Promise<void>;
}

/** Every process a suite started, so its after() hook can stop them whatever happened. */
export class Processes {
  readonly #all = new Set<ServerProcess>();

  /** `node src/main.ts` with BIZCHECK_ROLE, or (viaCli) `bizcheck serve --role …` */
  async start(name: string, role: Role, env: Record<string, string>, opts: { viaCli?: boolean } = {}): Promise<ServerProcess> {
    const p = await startProcess(name, role, env, opts.viaCli ?? false);
    this.#all.add(p);
    return p;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#all].map((p) => p.stop()));
    this.#all.clear();
  }
}

async function startProcess(name: string, role: Role, env: Record<string, string>, viaCli: boolean): Promise<ServerProcess> {
  const port = await freePort();
  const args = viaCli ? [CLI, 'serve', '--role', role] : ['--disable-warning=ExperimentalWarning', MAIN];
  const proc = spawn(process.execPath, args, {
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port), BIZCHECK_ROLE: viaCli ? '' : role },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  proc.stderr.on('data', (d: Buffer) => {
    err = (err + d.toString()).slice(-20_000);
    out = (out + d.toString()).slice(-20_000);
  });
  proc.stdout.on('data', (d: Buffer) => {
    out = (out + d.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const alive = () => proc.exitCode === null && proc.signalCode === null;
  const signal = async (sig: NodeJS.Signals, graceMs: number) => {
    if (!alive()) return;
    proc.kill(sig);
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  const p: ServerProcess = {
    name, url: `http://127.0.0.1:${port}`, proc, alive,
    errors: () => err,
    output: () => out,
    kill: () => signal('SIGKILL', 0),
    stop: () => signal('SIGTERM', 10_000),
  };
  for (let i = 0; i < 300; i++) {
    if (!alive()) throw new Error(`${name} exited while starting: ${err}`);
    try {
      if ((await fetch(`${p.url}/healthz`, { signal: AbortSignal.timeout(1000) })).ok) return p;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await p.kill();
  throw new Error(`${name} did not start within 30 s: ${err}`);
}

/** Peak resident memory of a process (Linux), in MB. */
export function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error('no VmHWM in /proc status');
  return Number(m[1]) / 1024;
}

/** The value of one series in a /metrics page (0 when absent). Labels must match exactly those given. */
export async function metric(url: string, name: string, labels: Record<string, string> = {}): Promise<number> {
  const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(10_000) })).text();
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`).toSorted().join(',');
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = (m[2] ?? '').split(',').filter(Boolean).toSorted().join(',');
    if (got === want) sum += Number(m[3]);
  }
  return sum;
}

/** n ≤ 2,000 distinct check-digit-valid numbers; seeds 0..80 never share one (the sandbox answers them all). */
export function numbers(n: number, seed: number): string[] {
  if (n > 2000 || seed < 0 || seed > 80) throw new RangeError('numbers(): n ≤ 2000, seed 0..80');
  return Array.from({ length: n }, (_, i) => {
    const nine = String(100_000_000 + seed * 10_000_000 + i * 4_999);
    return nine + checkDigitOf(nine);
  });
}

/** Polls `check` every `everyMs` until it returns a value (not undefined), at most `tries` times. */
export async function eventually<T>(what: string, tries: number, everyMs: number, check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${what}: not reached after ${tries} tries`);
}
