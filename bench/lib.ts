// Shared pieces of the benchmarks: child processes that announce their URL, and load runs.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { constants } from 'node:os';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { PostgresStore } from '../src/store/postgres.ts';

export interface Child {
  proc: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

/**
 * How `npm start` runs the server: its environment assignments (MALLOC_ARENA_MAX) and node flags
 * (heap limits), which are part of what a benchmark measures.
 */
export function startCommand(packageJson: string): { env: Record<string, string>; nodeArgs: string[] } {
  const words = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
  const env: Record<string, string> = {};
  const node = words.indexOf('node');
  for (const w of node > 0 ? words.slice(0, node) : []) {
    const eq = w.indexOf('=');
    if (eq > 0) env[w.slice(0, eq)] = w.slice(eq + 1);
  }
  return { env, nodeArgs: words.filter((a) => a.startsWith('--')) };
}

/** A port that was free a moment ago (the OS picks it). */
export async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/**
 * The children a bench started and has not stopped. They end with it however it ends: a bench
 * interrupted midway (Ctrl-C, a timeout's kill) used to leave its server and fake NTS running,
 * busy with the job it was given, slowing whatever ran next on the machine.
 */
const running = new Set<ChildProcess>();
let reaping = false;

export function endWithThisProcess(proc: ChildProcess): void {
  running.add(proc);
  proc.once('exit', () => running.delete(proc));
  if (reaping) return;
  reaping = true;
  const killAll = (): void => {
    for (const c of running) {
      try {
        // a child started `detached` leads a process group of its own: all of it goes
        if (c.pid !== undefined) process.kill(-c.pid, 'SIGKILL');
      } catch {
        c.kill('SIGKILL');
      }
    }
  };
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(128 + constants.signals[signal]);
    });
  }
}

/**
 * Starts `node args…` on a chosen port and waits until `readyPath` answers, within 20 s. Its output
 * goes to `logFile`, not through a pipe: draining a chatty child would tax the load generator.
 */
export async function startChild(args: string[], env: Record<string, string>, logFile: string, readyPath = '/healthz'): Promise<Child> {
  const port = await freePort();
  const out = openSync(logFile, 'a');
  const proc = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', ...args], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', out, out],
  });
  endWithThisProcess(proc);
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
      setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
    });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${proc.exitCode}; see ${logFile}`);
    try {
      if ((await fetch(`${url}${readyPath}`, { signal: AbortSignal.timeout(1000) })).status < 500) return { proc, url, stop };
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`${args.join(' ')} did not become ready in 20 s; see ${logFile}`);
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

/** A fixed-duration load run; autocannon stops by itself when the duration is over. */
export async function load(opts: { url: string; connections: number; durationS: number; headers?: Record<string, string>; bodies: string[] }): Promise<LoadResult> {
  let i = 0;
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections,
    duration: opts.durationS,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    requests: [{ setupRequest: (req) => ({ ...req, body: opts.bodies[i++ % opts.bodies.length] }) }],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}

/** Drops a bench's PostgreSQL schema (a fresh one per run); nothing to do on the embedded store. */
export async function dropBenchSchema(url: string | undefined, schema: string): Promise<void> {
  if (!url) return;
  const pg = new PostgresStore({ url, schema });
  await pg.dropSchema();
  await pg.close();
}

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a /proc stat line, in seconds (after the name in parentheses: fields 14 and 15) */
function statCpu(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / CLOCK_TICKS;
}

/**
 * CPU seconds each kind of thread of a process has used, by the kernel's name for it (MainThread,
 * WorkerThread: ours; V8Worker: V8's helpers; libuv-worker …), and `all`: the whole process's,
 * threads that have ended included (an idle address thread ends and another starts, and the
 * ended one's time is then missing from its kind). Read from /proc rather than from a profile,
 * which inflates native calls such as SQLite's. Empty where /proc is not there.
 */
export function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  try {
    out.set('all', statCpu(readFileSync(`/proc/${pid}/stat`, 'utf8')));
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim().replace(/[\d-]+$/, '') || 'thread';
        out.set(name, (out.get(name) ?? 0) + statCpu(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')));
      } catch {
        /* the thread ended meanwhile */
      }
    }
  } catch {
    /* not Linux */
  }
  return out;
}

/** What each kind of thread spent between two threadCpu readings, in µs a row (or whatever `unit` names). */
export function cpuPerRow(before: Map<string, number>, after: Map<string, number>, rowCount: number, unit = 'row'): string {
  const parts = [...after]
    .map(([name, s]) => [name, ((s - (before.get(name) ?? 0)) / rowCount) * 1e6] as const)
    .filter(([, us]) => us >= 0.5)
    .toSorted((a, b) => b[1] - a[1]);
  return parts.length === 0 ? '' : `  CPU µs/${unit}: ${parts.map(([n, us]) => `${n} ${us.toFixed(1)}`).join(', ')}`;
}
