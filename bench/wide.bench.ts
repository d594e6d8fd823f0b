// `npm run bench:wide`: the widest file the documented limits allow — a CSV of BENCH_WIDE_ROWS
// (default 1,000) rows × 256 columns × 780-character cells, ~199 MB, under the 200 MiB upload
// limit — uploaded BENCH_WIDE_UPLOADS times at once (default 2) with offline=true, processed, and
// every result downloaded as CSV, again all at once. Prints the server's peak RSS (VmHWM) after
// the uploads, after processing and after the downloads: the goal is ≤ 400 MB throughout.
// The server runs with the node flags of `npm start` on the embedded store (BENCH_DATABASE_URL
// switches it to PostgreSQL, in a fresh schema dropped afterwards).
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, openAsBlob, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startChild, startCommand, dropBenchSchema } from './lib.ts';

const rows = Number(process.env.BENCH_WIDE_ROWS ?? 1000);
const uploads = Number(process.env.BENCH_WIDE_UPLOADS ?? 2);
const COLUMNS = 256;
const CELL = 780;
const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-wide-'));
const file = path.join(dir, 'wide.csv');
const pgUrl = process.env.BENCH_DATABASE_URL || undefined;
const pgSchema = `bench_${randomBytes(6).toString('hex')}`;

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function writeFile(): Promise<number> {
  const out = createWriteStream(file);
  const header = ['사업자등록번호', ...Array.from({ length: COLUMNS - 1 }, (_, i) => `col${i + 2}`)].join(',');
  out.write(`${header}\n`);
  let bytes = 0;
  for (let r = 0; r < rows; r++) {
    const nine = String(100_000_000 + r * 7919).slice(0, 9);
    const cells = [`${nine}${checkDigitOf(nine)}`];
    // one byte a character, so the file is as wide as the limit allows (1,000 × 256 × 780 B ≈ 199 MB)
    for (let c = 1; c < COLUMNS; c++) cells.push(`${'memo text '.repeat(Math.ceil(CELL / 10)).slice(0, CELL - 8)}${String(r * COLUMNS + c).padStart(8, '0')}`);
    const line = `${cells.join(',')}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}

const env = { DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', DATABASE_URL: pgUrl ?? '', ...(pgUrl ? { DATABASE_SCHEMA: pgSchema } : {}) };
const logFile = path.join(dir, 'server.log');
const bytes = await writeFile();
const start = startCommand(path.join(root, 'package.json'));
const server = await startChild([...start.nodeArgs, path.join(root, 'src/main.ts')], { ...start.env, ...env }, logFile);
try {
  const cli = (...args: string[]) =>
    JSON.parse(execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/cli/main.ts'), ...args], { env: { ...process.env, ...env } }).toString()) as Record<string, string>;
  const acc = cli('accounts', 'create', '--email', `bench-${Date.now()}@example.com`, '--plan', 'enterprise');
  const headers = { 'x-api-key': acc.api_key! };
  console.log(`bench:wide — ${uploads} × ${rows.toLocaleString('en-US')} rows × ${COLUMNS} columns × ${CELL} characters (${(bytes / 1024 ** 2).toFixed(0)} MiB each) at once, store ${pgUrl ? 'postgres' : 'sqlite'}`);
  console.log(`server at start: peak RSS ${peakRssMb(server.proc.pid!).toFixed(0)} MB`);

  const t0 = performance.now();
  const jobs = await Promise.all(
    Array.from({ length: uploads }, async (_, i) => {
      const form = new FormData();
      form.append('file', await openAsBlob(file), `wide-${i}.csv`);
      const up = await fetch(`${server.url}/batch?offline=true`, { method: 'POST', headers, body: form });
      if (up.status !== 202) throw new Error(`upload ${i}: ${up.status} ${await up.text()}`);
      return ((await up.json()) as { job_id: string }).job_id;
    }),
  );
  console.log(`uploaded in ${((performance.now() - t0) / 1000).toFixed(1)} s: peak RSS ${peakRssMb(server.proc.pid!).toFixed(0)} MB`);

  // bounded: ten minutes, then give up
  const deadline = Date.now() + 600_000;
  for (const job of jobs) {
    for (;;) {
      if (Date.now() > deadline) throw new Error(`job ${job} not done in 10 minutes`);
      const s = (await (await fetch(`${server.url}/batch/${job}?preview=0`, { headers })).json()) as { status: string };
      if (s.status === 'done' || s.status === 'failed') {
        if (s.status === 'failed') throw new Error(`job ${job} failed`);
        break;
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  console.log(`processed in ${((performance.now() - t0) / 1000).toFixed(1)} s: peak RSS ${peakRssMb(server.proc.pid!).toFixed(0)} MB`);

  const t1 = performance.now();
  const downloaded = await Promise.all(
    jobs.map(async (job) => {
      const res = await fetch(`${server.url}/batch/${job}/results?format=csv`, { headers });
      if (res.status !== 200 || !res.body) throw new Error(`download ${job}: ${res.status}`);
      let n = 0;
      for await (const chunk of res.body) n += (chunk as Uint8Array).byteLength;
      return n;
    }),
  );
  console.log(
    `downloaded ${downloaded.map((n) => `${(n / 1024 ** 2).toFixed(0)} MiB`).join(' + ')} in ${((performance.now() - t1) / 1000).toFixed(1)} s: peak RSS ${peakRssMb(server.proc.pid!).toFixed(0)} MB`,
  );
} finally {
  await server.stop();
  await dropBenchSchema(pgUrl, pgSchema);
  rmSync(dir, { recursive: true, force: true });
}
