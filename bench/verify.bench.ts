// `npm run bench`: POST /verify on cached numbers against bare Fastify echoing the same body,
// measured in one run on this machine. Prints throughput, p50/p99 and the ratio.
//   BENCH_DURATION_S (default 10), BENCH_CONNECTIONS (default 50, split evenly over the processes)
//   BENCH_DATABASE_URL   PostgreSQL instead of the embedded store: the bench makes a schema of its own and drops it
//                        (DATABASE_URL still works as before and uses the database's search_path)
//   BENCH_PROCESSES      bizcheck API processes sharing the load (default 1; the echo baseline gets as many);
//                        each process's load comes from an account of its own, as many customers' would
//   BENCH_SHARED_ACCOUNT=1  one account for all processes instead (its monthly counter row is then contended)
//   BENCH_NAMED=1        each request also carries a name and an address (2,000 distinct customers drawn from the
//                        sandbox directory with the damage real lists carry, scripts/eval/as-written.ts), so every
//                        answer is assessed: parse, directory, match and score on each call; the echo gets the same bodies
//   BENCH_PROFILE=1      the bizcheck processes run under --cpu-prof; where their CPU time went is printed per request
//                        (every request they served, warm-ups included)
//   BENCH_NODE_ARGS      more flags for bizcheck's node, after npm start's own (to try one before changing the start script)
//   BENCH_KEEP=1         keeps the working folder (the store, the server's log, the profiles)
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { sandboxWorld } from '../src/addresses/sandbox-data.ts';
import { mailingsFrom } from '../scripts/eval/as-written.ts';
import { PostgresStore } from '../src/store/postgres.ts';
import { cpuPerRow, load, startChild, startCommand, threadCpu, type Child, type LoadResult } from './lib.ts';
import { profileSummary } from './profile-summary.ts';

const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const processes = Math.max(1, Number(process.env.BENCH_PROCESSES ?? 1));
const pgUrl = process.env.BENCH_DATABASE_URL;
const schema = pgUrl ? `bench_${randomBytes(4).toString('hex')}` : undefined;
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-'));
// info: request logging stays on, as in production
const env: Record<string, string> = { DATA_DIR: dataDir, LOG_LEVEL: 'info', ...(pgUrl && schema ? { DATABASE_URL: pgUrl, DATABASE_SCHEMA: schema } : {}) };
// bizcheck runs as `npm start` runs it: its heap flags decide how long GC pauses are, and so p99
// (without them node's young generation here is about three times as large: a third as many
// scavenges, of ~9 ms each against ~1 ms)
const asStarted = startCommand(path.join(root, 'package.json'));
const logFile = path.join(dataDir, 'server.log');
const storeName = pgUrl || process.env.DATABASE_URL ? 'postgres' : 'sqlite';

const numbers = SANDBOX_FIXED.map((f) => f.bno);
const named = process.env.BENCH_NAMED === '1';
const profDir = process.env.BENCH_PROFILE === '1' ? path.join(dataDir, 'prof') : null;
const bodies = named
  ? mailingsFrom(sandboxWorld().entries, 2_000, 14).map((m, i) => JSON.stringify({ b_no: numbers[i % numbers.length], name: m.name, address: m.address }))
  : numbers.map((b_no) => JSON.stringify({ b_no }));

function fmt(name: string, r: LoadResult): string {
  return `${name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   (${r.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`;
}

/** One load run per process at once, connections split between them; throughput adds up, latency is the worst process's. */
async function loadAll(children: Child[], opts: { durationS: number; headers?: (i: number) => Record<string, string> }): Promise<LoadResult> {
  const each = Math.max(1, Math.round(connections / children.length));
  const runs = await Promise.all(children.map((c, i) => load({ url: `${c.url}/verify`, connections: each, bodies, durationS: opts.durationS, headers: opts.headers?.(i) })));
  return {
    rps: runs.reduce((a, r) => a + r.rps, 0),
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
    non2xx: runs.reduce((a, r) => a + r.non2xx, 0),
    errors: runs.reduce((a, r) => a + r.errors, 0),
    total: runs.reduce((a, r) => a + r.total, 0),
  };
}

const createAccount = (n: number): string =>
  (JSON.parse(
    execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/cli/main.ts'), 'accounts', 'create', '--email', `bench-${Date.now()}-${n}@example.com`, '--plan', 'enterprise'], {
      env: { ...process.env, ...env },
    }).toString(),
  ) as { api_key: string }).api_key;
const sharedAccount = process.env.BENCH_SHARED_ACCOUNT === '1';
const keys = Array.from({ length: sharedAccount ? 1 : processes }, (_, i) => createAccount(i));
const keyFor = (i: number): string => keys[i % keys.length]!;

const started: Child[] = [];
const start = async (args: string[], extra: Record<string, string> = {}) => {
  const c = await startChild(args, { ...env, ...extra }, logFile);
  started.push(c);
  return c;
};
try {
  const echo = await Promise.all(Array.from({ length: processes }, () => start([path.join(root, 'bench/echo-server.ts')])));
  const apps = await Promise.all(Array.from({ length: processes }, () => start([...asStarted.nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean), ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []), path.join(root, 'src/main.ts')], asStarted.env)));
  const headers = (i: number) => ({ 'x-api-key': keyFor(i) });
  // warm: every number answered once so the measured calls are cache hits
  for (const [i, app] of apps.entries()) {
    for (const body of bodies) {
      const res = await fetch(`${app.url}/verify`, { method: 'POST', headers: { ...headers(i), 'content-type': 'application/json' }, body });
      if (res.status !== 200) throw new Error(`warm-up failed: ${res.status} ${await res.text()}`);
    }
  }
  // warm-up runs let both servers' JIT settle before anything is measured
  await loadAll(echo, { durationS: 3 });
  const warm = await loadAll(apps, { durationS: 3, headers });

  const echoCpu = echo.map((c) => threadCpu(c.proc.pid!));
  const bare = await loadAll(echo, { durationS });
  const echoSpent = echo.map((c, i) => cpuPerRow(echoCpu[i]!, threadCpu(c.proc.pid!), bare.total / echo.length, 'request')).join(' |');
  const appCpu = apps.map((c) => threadCpu(c.proc.pid!));
  const ours = await loadAll(apps, { durationS, headers });
  const appSpent = apps.map((c, i) => cpuPerRow(appCpu[i]!, threadCpu(c.proc.pid!), ours.total / apps.length, 'request')).join(' |');
  console.log(`POST /verify, cached numbers${named ? ' with name and address' : ''}, ${connections} connections, ${durationS} s each, ${cpus().length} cores, store ${storeName}, ${processes} process(es), ${keys.length} account(s)`);
  // the server's own CPU a request, from /proc: steadier than req/s on a machine whose two cores
  // the load generator shares
  console.log(`${fmt('bare Fastify echo', bare)}${echoSpent}`);
  console.log(`${fmt('bizcheck /verify', ours)}${appSpent}`);
  console.log(`ratio ${(ours.rps / bare.rps).toFixed(2)} × bare (goal ≥ 0.50), p99 ${ours.p99} ms (goal ≤ 10 ms)`);
  if (ours.non2xx > 0 || ours.errors > 0) console.log('WARNING: non-2xx answers or errors during the run; figures are not valid');
  if (profDir) {
    await Promise.all(apps.map((a) => a.stop()));
    const served = bodies.length * apps.length + warm.total + ours.total;
    for (const f of readdirSync(profDir).filter((n) => n.endsWith('.cpuprofile'))) console.log(`\nprofile of ${f} (${served} requests):\n${profileSummary(path.join(profDir, f), served)}`);
  }
} finally {
  await Promise.all(started.map((c) => c.stop()));
  if (pgUrl && schema) {
    const s = new PostgresStore({ url: pgUrl, schema });
    await s.dropSchema();
    await s.close();
  }
  if (process.env.BENCH_KEEP === '1') console.error(`kept ${dataDir} for inspection`);
  else rmSync(dataDir, { recursive: true, force: true });
}
