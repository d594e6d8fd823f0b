// `npm run bench:batch`: a generated CSV of BENCH_ROWS (default 1,000,000) distinct, valid business
// numbers against the fake NTS answering each call in 100 ms with at most 10 calls in flight
// (upstream bound: rows / 100 per call × 0.1 s / 10 = 100 s for a million), then the same file
// again with every number cached. Prints wall time (upload to done) as a multiple of the bound,
// rows/s and the server's peak RSS. BENCH_NAMES=1 adds a 상호 column (rows then get assessed).
// BENCH_DATABASE_URL=postgres://… runs the server on PostgreSQL (a fresh schema, dropped after);
// BENCH_NODE_ARGS passes flags to the server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof");
// BENCH_KEEP=1 keeps the working folder (server log) afterwards.
// BENCH_WORKERS=N (default 0; needs BENCH_DATABASE_URL) starts N `serve --role worker` processes on
// the same schema and runs the API process with BIZCHECK_ROLE=api, so every chunk is processed by
// the workers. The 10 NTS calls in flight are split between them (NTS_CONCURRENCY 10/N each), so
// the upstream bound means the same; each process's peak RSS is reported.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startChild, type Child, dropBenchSchema } from './lib.ts';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const withNames = process.env.BENCH_NAMES === '1';
const LATENCY_MS = 100;
const IN_FLIGHT = 10;
const boundS = (rows / 100) * (LATENCY_MS / 1000) / IN_FLIGHT;
const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-batch-'));
const file = path.join(dir, 'customers.csv');
const pgUrl = process.env.BENCH_DATABASE_URL || undefined;
const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
// the status is polled this often: 'done' is seen up to this late (1 s before 2026-11-22, second session)
const pollMs = Number(process.env.BENCH_POLL_MS ?? 200);
const workers = Number(process.env.BENCH_WORKERS ?? 0);
if (!Number.isInteger(workers) || workers < 0 || IN_FLIGHT % Math.max(workers, 1) !== 0) throw new Error(`BENCH_WORKERS must divide ${IN_FLIGHT}`);
// an embedded database belongs to one process (POSIX locks); worker processes need PostgreSQL
if (workers > 0 && !process.env.BENCH_DATABASE_URL) throw new Error('BENCH_WORKERS needs BENCH_DATABASE_URL');

async function writeFile(): Promise<void> {
  const out = createWriteStream(file);
  out.write(withNames ? '사업자등록번호,상호\n' : '사업자등록번호\n');
  for (let i = 0; i < rows; i++) {
    // distinct nine-digit prefixes stepping through the space; the check digit makes each valid
    const nine = String(100_000_000 + ((i * 7_919) % 899_999_999)).padStart(9, '0');
    const line = `${nine.slice(0, 3)}-${nine.slice(3, 5)}-${nine.slice(5)}${checkDigitOf(nine)}${withNames ? `,상호${i}` : ''}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

const env = {
  DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', NTS_SERVICE_KEY: 'bench', NTS_CONCURRENCY: String(IN_FLIGHT),
  BATCH_MAX_ROWS: String(rows), BATCH_MAX_FILE_BYTES: String(2 * 1024 ** 3), DATABASE_URL: pgUrl ?? '', ...(pgUrl ? { DATABASE_SCHEMA: pgSchema } : {}),
};
const logFile = path.join(dir, 'server.log');

await writeFile();
const nts = await startChild([path.join(root, 'scripts/fake-nts.ts'), '--latency-ms', String(LATENCY_MS)], {}, logFile, '/').catch(() => null);
if (!nts) throw new Error(`fake NTS did not start; see ${logFile}`);
// the server runs with the node flags of `npm start` (its heap limits are part of what is measured)
const startScript = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start.split(' ');
const nodeArgs = [...startScript.filter((a) => a.startsWith('--')), ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
const server = await startChild([...nodeArgs, path.join(root, 'src/main.ts')], { ...env, NTS_BASE_URL: nts.url, ...(workers > 0 ? { BIZCHECK_ROLE: 'api' } : {}) }, logFile);
const workerProcs: Child[] = [];
try {
  for (let i = 0; i < workers; i++) {
    const workerEnv = { ...env, NTS_BASE_URL: nts.url, NTS_CONCURRENCY: String(IN_FLIGHT / workers) };
    workerProcs.push(await startChild([...nodeArgs, path.join(root, 'src/cli/main.ts'), 'serve', '--role', 'worker'], workerEnv, logFile));
  }
  const cli = (...args: string[]) =>
    JSON.parse(execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/cli/main.ts'), ...args], { env: { ...process.env, ...env } }).toString()) as Record<string, string>;
  const acc = cli('accounts', 'create', '--email', `bench-${Date.now()}@example.com`, '--plan', 'enterprise');
  cli('accounts', 'set-quota', '--account', acc.account_id!, '--limit', String(rows * 3));

  async function runOnce(label: string): Promise<void> {
    // the machine is shared: the load just before a run is part of its figures
    console.log(`load average before ${label}: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', await openAsBlob(file), 'customers.csv');
    const up = await fetch(`${server.url}/batch`, { method: 'POST', headers: { 'x-api-key': acc.api_key! }, body: form });
    if (up.status !== 202) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const { job_id: jobId } = (await up.json()) as { job_id: string };
    const uploadedS = (performance.now() - t0) / 1000;
    let status = '';
    // bounded: five times the upstream bound, then give up
    while (performance.now() - t0 < Math.max(60_000, boundS * 5000)) {
      await new Promise((r) => setTimeout(r, pollMs));
      let s: { status: string; processed: number };
      try {
        s = (await (await fetch(`${server.url}/batch/${jobId}?preview=0`, { headers: { 'x-api-key': acc.api_key! } })).json()) as typeof s;
      } catch (err) {
        // a poll lost to a closing keep-alive socket is retried at the next tick; a dead server is not
        if (server.proc.exitCode !== null || server.proc.signalCode !== null) throw new Error(`the server died (${server.proc.exitCode ?? server.proc.signalCode}); see ${logFile}`, { cause: err });
        console.error(`poll failed (${String(err)}); retrying`);
        continue;
      }
      status = s.status;
      if (status === 'done' || status === 'failed') break;
    }
    const wallS = (performance.now() - t0) / 1000;
    console.log(
      `${label.padEnd(16)} ${rows.toLocaleString('en-US')} rows  ${status}  wall ${wallS.toFixed(1)} s (upload ${uploadedS.toFixed(1)} s)  ` +
        `${(wallS / boundS).toFixed(2)} × bound  ${Math.round(rows / wallS).toLocaleString('en-US')} rows/s  peak RSS ${peakRssMb(server.proc.pid!).toFixed(0)} MB` +
        workerProcs.map((w, i) => `, worker ${i + 1} ${peakRssMb(w.proc.pid!).toFixed(0)} MB`).join(''),
    );
  }
  console.log(`bench:batch — ${rows.toLocaleString('en-US')} rows${withNames ? ' with names' : ''}, fake NTS ${LATENCY_MS} ms/call, ${IN_FLIGHT} in flight, upstream bound ${boundS.toFixed(1)} s, store ${pgUrl ? 'postgres' : 'sqlite'}${workers > 0 ? `, API process (role api) + ${workers} worker process(es), NTS_CONCURRENCY ${IN_FLIGHT / workers} each` : ''}`);
  await runOnce('upstream');
  await runOnce('all cached');
  rmSync(file);
} finally {
  for (const w of workerProcs) await w.stop();
  await server.stop();
  await nts.stop();
  await dropBenchSchema(pgUrl, pgSchema);
  if (process.exitCode || process.env.BENCH_KEEP === '1') console.error(`kept ${dir} for inspection`);
  else rmSync(dir, { recursive: true, force: true });
}
