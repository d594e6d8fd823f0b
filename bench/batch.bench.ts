// `npm run bench:batch`: bulk verification, upload to done, through the API of a real server.
//
// Numbers only (the default): a generated CSV of BENCH_ROWS (default 1,000,000) distinct, valid
// business numbers against the fake NTS answering each call in 100 ms with at most 10 calls in
// flight (upstream bound: rows / 100 per call × 0.1 s / 10 = 100 s for a million), then the same
// file again with every number cached, the distinct list shuffled, a list of as many rows holding
// each number 2–3 times (rows/2.5 distinct numbers, all cached), the shuffled list again and the
// distinct list again. The generated distinct list runs in key order, so a chunk's numbers sit
// side by side in the status cache; the repeating list, like a real one, is in no order: its
// ratio is printed against the two shuffled runs either side of it, and against the two ordered.
//
// BENCH_NAMED=1: the customer list as customers keep it — every row with a 상호 and a 주소, the
// address drawn from the directory and written with the damage real lists carry (abbreviated
// 시/도, 지번 forms, old postal codes, missing or wrong building numbers, road-name typos, units;
// scripts/eval/as-written.ts). The directory is an imported 도로명주소 file of BENCH_BUILDINGS
// (default 200,000) generated buildings (the production path), or the bundled sandbox with
// BENCH_DIRECTORY=sandbox. Runs, in one server: the named list against the fake NTS; then, all
// cached, the same numbers without names (the reference), the named list, the named list in no
// order, the named list with each number appearing 2–3 times (same row count, rows/2.5 distinct
// numbers; in no order, so its ratio is printed against the shuffled named runs either side of
// it, and against the ordered one), the shuffled named list again and the numbers-only list with
// the same repeats; with BENCH_LABELS=N (e.g. 100000) the account then
// records N outcomes on the list's own numbers and addresses, and the named list runs again.
// BENCH_WARM=numbers: the first run is the numbers-only list against the fake NTS instead of the
// named one, as when a customer whose numbers were checked before uploads them with names: the
// cache then holds the list's numbers but not the swapped neighbours of its unregistered ones,
// which the named runs still ask NTS for.
// Every run prints upload, processing and download (the CSV results) separately, rows/s, its
// ratio to the numbers-only run, the server's peak RSS during it, and the CPU each kind of its
// threads spent on upload and processing, per row (from /proc: all — the whole process, ended
// threads included —, MainThread, WorkerThread — the address, parsing and NTS threads that are
// still running at the end of the run —, V8Worker: V8's helpers).
//
// BENCH_PROFILE=1 then restarts the server under --cpu-prof on the same data, runs the all-cached
// list once more (named when BENCH_NAMED=1; or BENCH_PROFILE=numbers|named|named-repeats|
// number-repeats; numbers-upstream|named-upstream empty the status cache first, so that every
// number is asked of the fake NTS again) and prints where that run's CPU time went (self time by
// part of the code: file parsing, address parsing, directory, matching, scoring, store, JSON,
// HTTP, GC), in ms and µs per row, for the main thread and each worker thread (the address thread
// matches and scores the named rows). The profiled run does not download its results: the profile
// is upload and processing. (Embedded store only: the new server needs the old one's data.)
// BENCH_DATABASE_URL=postgres://… runs the server on PostgreSQL (a fresh schema, dropped after);
// BENCH_NODE_ARGS passes flags to the server's node; BENCH_KEEP=1 keeps the working folder.
// BENCH_WORKERS=N (default 0; needs BENCH_DATABASE_URL) starts N `serve --role worker` processes on
// the same schema and runs the API process with BIZCHECK_ROLE=api, so every chunk is processed by
// the workers. The 10 NTS calls in flight are split between them (NTS_CONCURRENCY 10/N each), so
// the upstream bound means the same; each process's peak RSS is reported.
import { execFileSync } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { createWriteStream, mkdirSync, mkdtempSync, openAsBlob, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { seededRandom } from '../src/domain/seeded-random.ts';
import { generateEntries, writeAddressDbFixture } from '../src/addresses/address-db-fixture.ts';
import { sandboxWorld } from '../src/addresses/sandbox-data.ts';
import type { DirectoryEntry } from '../src/domain/address/types.ts';
import { mailingsFrom, type Mailing } from '../scripts/eval/as-written.ts';
import { startChild, startCommand, type Child, dropBenchSchema, threadCpu, cpuPerRow } from './lib.ts';
import { profileSummary } from './profile-summary.ts';

const rows = Number(process.env.BENCH_ROWS ?? 1_000_000);
const mean = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0) / xs.length;
const named = process.env.BENCH_NAMED === '1';
const buildings = Number(process.env.BENCH_BUILDINGS ?? 200_000);
const directoryKind = process.env.BENCH_DIRECTORY === 'sandbox' ? 'sandbox' : 'local';
const labels = Number(process.env.BENCH_LABELS ?? 0);
// which list the profiled run uploads: 1 = the named list (numbers only without BENCH_NAMED), or a list by name
const profile = process.env.BENCH_PROFILE ?? '';
const LATENCY_MS = 100;
const IN_FLIGHT = 10;
const boundS = (rows / 100) * (LATENCY_MS / 1000) / IN_FLIGHT;
const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-batch-'));
const profDir = path.join(dir, 'prof');
const pgUrl = process.env.BENCH_DATABASE_URL || undefined;
const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
// the status is polled this often: 'done' is seen up to this late (1 s before 2026-11-22, second session)
const pollMs = Number(process.env.BENCH_POLL_MS ?? 200);
const workers = Number(process.env.BENCH_WORKERS ?? 0);
if (!Number.isInteger(workers) || workers < 0 || IN_FLIGHT % Math.max(workers, 1) !== 0) throw new Error(`BENCH_WORKERS must divide ${IN_FLIGHT}`);
// an embedded database belongs to one process (POSIX locks); worker processes need PostgreSQL
if (workers > 0 && !process.env.BENCH_DATABASE_URL) throw new Error('BENCH_WORKERS needs BENCH_DATABASE_URL');
if (labels > rows) throw new Error('BENCH_LABELS cannot exceed BENCH_ROWS (outcomes are recorded on the list\'s own rows)');

/** The i-th distinct valid number: nine-digit prefixes stepping through the space, with their check digit. */
function numberAt(i: number): string {
  const nine = String(100_000_000 + ((i * 7_919) % 899_999_999)).padStart(9, '0');
  return `${nine.slice(0, 3)}-${nine.slice(3, 5)}-${nine.slice(5)}${checkDigitOf(nine)}`;
}

/** A CSV cell, quoted when it must be. */
const cell = (s: string): string => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** The customer list's names and addresses, row i's by index: deterministic, drawn from the directory. */
const mailings = (directory: readonly DirectoryEntry[]): Mailing[] => mailingsFrom(directory, rows, 16);

/**
 * A list file. `numbers[k]` is the index of row k's number; names and addresses travel with the
 * number (a repeated customer is the same customer), so repeats are real repeats.
 */
async function writeList(file: string, numbers: readonly number[], people: readonly Mailing[] | null): Promise<void> {
  const out = createWriteStream(file);
  out.write(people ? '사업자등록번호,상호,주소\n' : '사업자등록번호\n');
  for (const n of numbers) {
    const m = people?.[n];
    const line = m ? `${numberAt(n)},${cell(m.name)},${cell(m.address)}\n` : `${numberAt(n)}\n`;
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** Row order for a list of `rows` rows whose numbers each appear 2–3 times (2.5 on average), shuffled. */
function repeatedNumbers(): number[] {
  const r = seededRandom(25);
  const out: number[] = [];
  for (let n = 0; out.length < rows; n++) {
    const times = r() < 0.5 ? 2 : 3;
    for (let k = 0; k < times && out.length < rows; k++) out.push(n);
  }
  return shuffle(out, r);
}

/** Fisher–Yates, in place. */
function shuffle(out: number[], r: () => number): number[] {
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Starts a fresh peak for the next run (Linux: writing 5 to clear_refs resets VmHWM). */
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    /* not Linux, or not permitted: the peak is then since the process started */
  }
}

const env: Record<string, string> = {
  DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', NTS_SERVICE_KEY: 'bench', NTS_CONCURRENCY: String(IN_FLIGHT),
  // the upstream runs ask every number once and unregistered ones' neighbours too (and a profiled
  // upstream run all of them again): past the free key's 1,000,000 a day, a million-row job would wait for tomorrow
  NTS_MAX_NUMBERS_PER_DAY: String(Math.max(1_000_000, rows * 4)),
  BATCH_MAX_ROWS: String(rows), BATCH_MAX_FILE_BYTES: String(2 * 1024 ** 3), DATABASE_URL: pgUrl ?? '', ...(pgUrl ? { DATABASE_SCHEMA: pgSchema } : {}),
  ...(named ? { ADDRESS_DIRECTORY: directoryKind } : {}),
};
const logFile = path.join(dir, 'server.log');
const cli = (...args: string[]) =>
  JSON.parse(execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/cli/main.ts'), ...args], { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 ** 2 }).toString()) as Record<string, string>;

const files = { numbers: path.join(dir, 'numbers.csv'), named: path.join(dir, 'named.csv'), namedRepeats: path.join(dir, 'named-repeats.csv'), numberRepeats: path.join(dir, 'number-repeats.csv'), numbersShuffled: path.join(dir, 'numbers-shuffled.csv'), namedShuffled: path.join(dir, 'named-shuffled.csv') };
const distinct = Array.from({ length: rows }, (_, i) => i);
let people: Mailing[] | null = null;
if (named) {
  let directory: DirectoryEntry[];
  if (directoryKind === 'local') {
    // the production path: a 도로명주소 file imported into the store before the server starts
    const jusoDir = path.join(dir, 'juso');
    mkdirSync(jusoDir);
    await writeAddressDbFixture(path.join(jusoDir, 'rnaddrkor_bench.txt'), buildings, { seed: 16 });
    const t = performance.now();
    cli('addresses', 'import', jusoDir);
    console.log(`directory: ${buildings.toLocaleString('en-US')} buildings imported in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    directory = [...generateEntries(buildings, { seed: 16 })];
  } else directory = [...sandboxWorld().entries];
  people = mailings(directory);
  await writeList(files.named, distinct, people);
  await writeList(files.namedRepeats, repeatedNumbers(), people);
  await writeList(files.namedShuffled, shuffle([...distinct], seededRandom(26)), people);
}
await writeList(files.numberRepeats, repeatedNumbers(), null);
await writeList(files.numbers, distinct, null);
// the distinct numbers in no order, as a customer list has them: the generated list runs in key
// order, so a chunk's numbers sit side by side in the status cache, which a real list's do not
await writeList(files.numbersShuffled, shuffle([...distinct], seededRandom(26)), null);

const nts = await startChild([path.join(root, 'scripts/fake-nts.ts'), '--latency-ms', String(LATENCY_MS)], {}, logFile, '/').catch(() => null);
if (!nts) throw new Error(`fake NTS did not start; see ${logFile}`);
// the server runs with the node flags of `npm start` (its heap limits are part of what is measured)
const start = startCommand(path.join(root, 'package.json'));
const nodeArgs = [...start.nodeArgs, ...(process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)];
let server = await startChild([...nodeArgs, path.join(root, 'src/main.ts')], { ...start.env, ...env, NTS_BASE_URL: nts.url, ...(workers > 0 ? { BIZCHECK_ROLE: 'api' } : {}) }, logFile);
const workerProcs: Child[] = [];
try {
  for (let i = 0; i < workers; i++) {
    const workerEnv = { ...start.env, ...env, NTS_BASE_URL: nts.url, NTS_CONCURRENCY: String(IN_FLIGHT / workers) };
    workerProcs.push(await startChild([...nodeArgs, path.join(root, 'src/cli/main.ts'), 'serve', '--role', 'worker'], workerEnv, logFile));
  }
  const acc = cli('accounts', 'create', '--email', `bench-${Date.now()}@example.com`, '--plan', 'enterprise');
  cli('accounts', 'set-quota', '--account', acc.account_id!, '--limit', String(rows * 10));
  const headers = { 'x-api-key': acc.api_key! };

  async function waitDone(jobId: string, t0: number): Promise<string> {
    // bounded: five times the upstream bound (at least ten minutes), then give up
    while (performance.now() - t0 < Math.max(600_000, boundS * 5000)) {
      await new Promise((r) => setTimeout(r, pollMs));
      let s: { status: string };
      try {
        s = (await (await fetch(`${server.url}/batch/${jobId}?preview=0`, { headers })).json()) as typeof s;
      } catch (err) {
        // a poll lost to a closing keep-alive socket is retried at the next tick; a dead server is not
        if (server.proc.exitCode !== null || server.proc.signalCode !== null) throw new Error(`the server died (${server.proc.exitCode ?? server.proc.signalCode}); see ${logFile}`, { cause: err });
        console.error(`poll failed (${String(err)}); retrying`);
        continue;
      }
      if (s.status === 'done' || s.status === 'failed') return s.status;
    }
    return 'timed out';
  }

  /** NTS calls the server (and its workers) sent so far, and their total time (its /metrics) */
  async function ntsCalls(): Promise<{ calls: number; seconds: number }> {
    let calls = 0;
    let seconds = 0;
    for (const p of [server, ...workerProcs]) {
      const page = await fetch(`${p.url}/metrics`).then((r) => r.text()).catch(() => '');
      for (const m of page.matchAll(/^bizcheck_upstream_attempt_duration_seconds_(sum|count) ([0-9.e+-]+)$/gm)) {
        if (m[1] === 'count') calls += Number(m[2]);
        else seconds += Number(m[2]);
      }
    }
    return { calls, seconds };
  }

  let reference: number | null = null;
  /** `download: false` leaves the results unread (a profiled run: its profile is upload and processing alone) */
  async function runOnce(label: string, file: string, { download = true } = {}): Promise<{ jobId: string; rate: number }> {
    // the machine is shared: the load just before a run is part of its figures
    const load = readFileSync('/proc/loadavg', 'utf8').trim().split(' ').slice(0, 3).join(' ');
    for (const p of [server, ...workerProcs]) resetPeak(p.proc.pid!);
    const ntsBefore = await ntsCalls();
    const cpuBefore = threadCpu(server.proc.pid!);
    const t0 = performance.now();
    const form = new FormData();
    form.append('file', await openAsBlob(file), path.basename(file));
    const up = await fetch(`${server.url}/batch`, { method: 'POST', headers, body: form });
    if (up.status !== 202) throw new Error(`upload: ${up.status} ${await up.text()}`);
    const { job_id: jobId } = (await up.json()) as { job_id: string };
    const uploadedS = (performance.now() - t0) / 1000;
    const status = await waitDone(jobId, t0);
    const wallS = (performance.now() - t0) / 1000;
    const cpu = cpuPerRow(cpuBefore, threadCpu(server.proc.pid!), rows);
    const t1 = performance.now();
    let bytes = 0;
    let got = 'not read';
    if (download) {
      const res = await fetch(`${server.url}/batch/${jobId}/results?format=csv`, { headers });
      for await (const chunk of res.body!) bytes += (chunk as Uint8Array).byteLength;
      got = `${(bytes / 1024 ** 2).toFixed(0)} MB, ${res.status}`;
    }
    const downloadS = (performance.now() - t1) / 1000;
    const ntsAfter = await ntsCalls();
    const called = ntsAfter.calls - ntsBefore.calls;
    const asked = called > 0 ? `  NTS calls ${called.toLocaleString('en-US')} (mean ${(((ntsAfter.seconds - ntsBefore.seconds) / called) * 1000).toFixed(0)} ms)` : '';
    const rate = rows / wallS;
    reference ??= rate;
    console.log(
      `${label.padEnd(26)} ${status}  upload ${uploadedS.toFixed(1)} s + processing ${(wallS - uploadedS).toFixed(1)} s = ${wallS.toFixed(1)} s  ` +
        `${Math.round(rate).toLocaleString('en-US')} rows/s (${(rate / reference).toFixed(2)} × first)  ${(wallS / boundS).toFixed(2)} × bound  ` +
        `download ${downloadS.toFixed(1)} s (${got})  peak RSS ${peakRssMb(server.proc.pid!).toFixed(0)} MB` +
        workerProcs.map((w, i) => `, worker ${i + 1} ${peakRssMb(w.proc.pid!).toFixed(0)} MB`).join('') + `${asked}  [load ${load}]${cpu}`,
    );
    return { jobId, rate };
  }

  console.log(
    `bench:batch — ${rows.toLocaleString('en-US')} rows${named ? ` named (상호, 주소 from the ${directoryKind === 'local' ? `imported directory of ${buildings.toLocaleString('en-US')} buildings` : 'sandbox directory'})` : ''}, ` +
      `fake NTS ${LATENCY_MS} ms/call, ${IN_FLIGHT} in flight, upstream bound ${boundS.toFixed(1)} s, store ${pgUrl ? 'postgres' : 'sqlite'}` +
      (workers > 0 ? `, API process (role api) + ${workers} worker process(es), NTS_CONCURRENCY ${IN_FLIGHT / workers} each` : ''),
  );
  if (!named) {
    await runOnce('upstream', files.numbers);
    reference = null;
    const ordered = [(await runOnce('all cached', files.numbers)).rate];
    // the repeats' fair reference: as many distinct rows, in no more order than the repeats' list;
    // run just before and just after it, so that their ratio is not the machine's drift
    const shuffled = [(await runOnce('all cached, shuffled', files.numbersShuffled)).rate];
    const repeats = (await runOnce('2–3× repeats, cached', files.numberRepeats)).rate;
    shuffled.push((await runOnce('all cached, shuffled again', files.numbersShuffled)).rate);
    ordered.push((await runOnce('all cached, again', files.numbers)).rate);
    console.log(
      `2–3× repeats ÷ the same rows all distinct: ${(repeats / mean(shuffled)).toFixed(2)} × in no order (the runs either side), ` +
        `${(repeats / mean(ordered)).toFixed(2)} × in key order (goal ≥ 0.9 ×)`,
    );
  } else {
    if (process.env.BENCH_WARM === 'numbers') await runOnce('numbers, upstream', files.numbers);
    else await runOnce('named, upstream', files.named);
    reference = null;
    await runOnce('numbers, cached', files.numbers);
    const namedRun = await runOnce('named, cached', files.named);
    // the repeats' fair reference, as for numbers: the same distinct rows in no order, either side of them
    const shuffled = [(await runOnce('named, shuffled', files.namedShuffled)).rate];
    const repeats = (await runOnce('named, 2–3× repeats', files.namedRepeats)).rate;
    shuffled.push((await runOnce('named, shuffled again', files.namedShuffled)).rate);
    console.log(
      `named 2–3× repeats ÷ the same rows all distinct: ${(repeats / mean(shuffled)).toFixed(2)} × in no order (the runs either side), ` +
        `${(repeats / namedRun.rate).toFixed(2)} × in key order (goal ≥ 0.9 ×)`,
    );
    await runOnce('numbers, 2–3× repeats', files.numberRepeats);
    if (labels > 0) {
      // outcomes on the list's own rows (its numbers and addresses), a fifth of them returned
      const t = performance.now();
      for (let at = 0; at < labels; at += 50_000) {
        const part = Array.from({ length: Math.min(50_000, labels - at) }, (_, k) => ({ row_id: at + k + 1, bounced: (at + k) % 5 === 0 }));
        const res = await fetch(`${server.url}/batch/${namedRun.jobId}/labels`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(part) });
        if (res.status !== 200) throw new Error(`labels: ${res.status} ${await res.text()}`);
      }
      console.log(`recorded ${labels.toLocaleString('en-US')} outcomes in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      await runOnce(`named, ${Math.round(labels / 1000)}k labels`, files.named);
    }
  }
  if (profile !== '' && !pgUrl && workers === 0) {
    await server.stop();
    server = await startChild([...nodeArgs, '--cpu-prof', `--cpu-prof-dir=${profDir}`, path.join(root, 'src/main.ts')], { ...start.env, ...env, NTS_BASE_URL: nts.url }, logFile);
    const which = profile === '1' ? (named ? 'named' : 'numbers') : profile;
    const list = {
      numbers: files.numbers, named: files.named, 'named-repeats': files.namedRepeats, 'number-repeats': files.numberRepeats, 'numbers-upstream': files.numbers, 'named-upstream': files.named,
    }[which];
    if (!list) throw new Error(`BENCH_PROFILE: 1, numbers, named, named-repeats, number-repeats, numbers-upstream or named-upstream (named ones need BENCH_NAMED=1), not ${which}`);
    const upstream = which.endsWith('-upstream');
    if (upstream) {
      // the status cache emptied (the server is stopped): every number goes to the fake NTS again
      const db = new DatabaseSync(path.join(dir, 'data', 'bizcheck.db'));
      db.exec('DELETE FROM status_cache');
      db.close();
    }
    await runOnce(`${which}${upstream ? '' : ', cached'} (profiled)`, list, { download: false });
    await server.stop();
    for (const f of readdirSync(profDir).filter((n) => n.endsWith('.cpuprofile'))) console.log(`\nprofile of the last run (${f}):\n${profileSummary(path.join(profDir, f), rows)}`);
  }
} finally {
  for (const w of workerProcs) await w.stop();
  await server.stop();
  await nts.stop();
  await dropBenchSchema(pgUrl, pgSchema);
  if (process.exitCode || process.env.BENCH_KEEP === '1') console.error(`kept ${dir} for inspection`);
  else rmSync(dir, { recursive: true, force: true });
}
