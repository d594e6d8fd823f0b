// `npm run bench`: POST /verify on cached numbers against bare Fastify echoing the same body,
// measured in one run on this machine. Prints throughput, p50/p99 and the ratio.
//   BENCH_DURATION_S (default 10), BENCH_CONNECTIONS (default 50), DATABASE_URL (PostgreSQL instead of embedded)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { load, startChild, type LoadResult } from './lib.ts';

const durationS = Number(process.env.BENCH_DURATION_S ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-'));
// info: request logging stays on, as in production
const env = { DATA_DIR: dataDir, LOG_LEVEL: 'info' };
const logFile = path.join(dataDir, 'server.log');

const numbers = SANDBOX_FIXED.map((f) => f.bno);
const bodies = numbers.map((b_no) => JSON.stringify({ b_no }));

function fmt(name: string, r: LoadResult): string {
  return `${name.padEnd(22)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms   (${r.total} requests, ${r.non2xx} non-2xx, ${r.errors} errors)`;
}

const created = JSON.parse(
  execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/cli/main.ts'), 'accounts', 'create', '--email', `bench-${Date.now()}@example.com`, '--plan', 'enterprise'], {
    env: { ...process.env, ...env },
  }).toString(),
) as { api_key: string };

const echo = await startChild([path.join(root, 'bench/echo-server.ts')], env, logFile);
const app = await startChild([path.join(root, 'src/main.ts')], env, logFile).catch(async (err: unknown) => {
  await echo.stop();
  throw err;
});
try {
  const headers = { 'x-api-key': created.api_key };
  // warm: every number answered once so the measured calls are cache hits
  for (const body of bodies) {
    const res = await fetch(`${app.url}/verify`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
    if (res.status !== 200) throw new Error(`warm-up failed: ${res.status} ${await res.text()}`);
  }
  // warm-up runs let both servers' JIT settle before anything is measured
  await load({ url: `${echo.url}/verify`, connections, durationS: 3, bodies });
  await load({ url: `${app.url}/verify`, connections, durationS: 3, headers, bodies });

  const bare = await load({ url: `${echo.url}/verify`, connections, durationS, bodies });
  const ours = await load({ url: `${app.url}/verify`, connections, durationS, headers, bodies });
  console.log(`POST /verify, cached numbers, ${connections} connections, ${durationS} s each, ${cpus().length} cores, store ${process.env.DATABASE_URL ? 'postgres' : 'sqlite'}`);
  console.log(fmt('bare Fastify echo', bare));
  console.log(fmt('bizcheck /verify', ours));
  console.log(`ratio ${(ours.rps / bare.rps).toFixed(2)} × bare (goal ≥ 0.50), p99 ${ours.p99} ms (goal ≤ 10 ms)`);
  if (ours.non2xx > 0 || ours.errors > 0) console.log('WARNING: non-2xx answers or errors during the run; figures are not valid');
} finally {
  await Promise.all([echo.stop(), app.stop()]);
  rmSync(dataDir, { recursive: true, force: true });
}
