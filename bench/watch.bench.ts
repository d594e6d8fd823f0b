// `npm run bench:watch`: an enterprise watch list at its limit, on the sandbox registry, in one
// process with a clock the bench moves. Registers BENCH_WATCH entries (default 200,000) with
// POST /watch arrays of 1,000 and prints the rate per tenth of the list (flat = cost independent
// of the list's size); then single registrations on the full list, GET /watch pages deep in the
// list, and one hourly re-check round of every entry with /verify latency during it against idle.
// Prints figures; never fails on a time. DATABASE_URL: PostgreSQL instead of the embedded store.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/start/server.ts';
import { createAccount } from '../src/accounts/accounts.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { dropBenchSchema } from './lib.ts';

const N = Number(process.env.BENCH_WATCH ?? 200_000);
const BULK = 1000;
const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-watch-'));
const pgUrl = process.env.DATABASE_URL || undefined;
const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
let clock = Date.now();
const config = loadConfig({
  PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), WATCH_POLL_SECONDS: '3600', WATCH_SCHEDULER: 'off',
  ...(pgUrl ? { DATABASE_URL: pgUrl, DATABASE_SCHEMA: pgSchema } : {}),
  ...(process.env.WATCH_CLAIM_SIZE ? { WATCH_CLAIM_SIZE: process.env.WATCH_CLAIM_SIZE } : {}),
});
const srv = await startServer(config, { now: () => new Date(clock) });

const bno = (i: number) => {
  const nine = String(100_000_000 + ((i * 7_919) % 899_999_999)).padStart(9, '0');
  return nine + checkDigitOf(nine);
};
const ms = (t: number) => `${t.toFixed(1)} ms`;
const pct = (xs: number[], p: number) => xs.toSorted((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

try {
  const { account, apiKey } = await createAccount(srv.store, `bench-${Date.now()}@example.com`, 'enterprise');
  await srv.store.accounts.setQuotaLimit(account.id, N * 4);
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const post = async (p: string, body: unknown) => {
    const res = await fetch(`${srv.url}${p}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300 && res.status !== 207) throw new Error(`${p}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  console.log(`bench:watch — ${N.toLocaleString('en-US')} entries, store ${pgUrl ? 'postgres' : 'sqlite'}; load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);

  // bulk registration, the list filling up: the rate per tenth
  const tenth = Math.max(BULK, Math.floor(N / 10 / BULK) * BULK);
  let registered = 0;
  const total0 = performance.now();
  const rates: string[] = [];
  while (registered < N - 1000) {
    const t0 = performance.now();
    const end = Math.min(N - 1000, registered + tenth);
    for (let i = registered; i < end; i += BULK) {
      const body = Array.from({ length: Math.min(BULK, end - i) }, (_, k) => ({ biz_no: bno(i + k) }));
      const out = await post('/watch', body);
      if (out.created !== body.length) throw new Error(`bulk at ${i}: ${JSON.stringify(out).slice(0, 300)}`);
    }
    rates.push(Math.round((end - registered) / ((performance.now() - t0) / 1000)).toLocaleString('en-US'));
    registered = end;
  }
  const bulkS = (performance.now() - total0) / 1000;
  console.log(`bulk POST /watch (arrays of ${BULK}): ${registered.toLocaleString('en-US')} in ${bulkS.toFixed(1)} s = ${Math.round(registered / bulkS).toLocaleString('en-US')} entries/s; per tenth of the list: ${rates.join(', ')} entries/s`);

  // the last 1,000 one by one, on an almost full list
  const single: number[] = [];
  for (let i = registered; i < N; i++) {
    const t0 = performance.now();
    await post('/watch', { biz_no: bno(i) });
    single.push(performance.now() - t0);
  }
  console.log(`single POST /watch with ${registered.toLocaleString('en-US')}+ entries listed: ${single.length} in ${(single.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s, p50 ${ms(pct(single, 0.5))}, p99 ${ms(pct(single, 0.99))}`);

  // pages: walk 50 pages of 100 from the start, then from deep in the list
  const page = async (cursor: string | null) => {
    const t0 = performance.now();
    const res = await fetch(`${srv.url}/watch?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers });
    const body = (await res.json()) as { next_cursor: string | null };
    return { t: performance.now() - t0, next: body.next_cursor };
  };
  const pageTimes: number[] = [];
  let cursor: string | null = null;
  for (let p = 0; p < 50; p++) {
    const r = await page(cursor);
    pageTimes.push(r.t);
    cursor = r.next;
  }
  console.log(`GET /watch?limit=100, 50 pages in order: p50 ${ms(pct(pageTimes, 0.5))}, p99 ${ms(pct(pageTimes, 0.99))}`);

  // finding entries: a status filter (its own index) and a number typed as people do, 20 each
  const find = async (query: string) => {
    const times: number[] = [];
    let matching = 0;
    for (let i = 0; i < 20; i++) {
      const t0 = performance.now();
      const res = await fetch(`${srv.url}/watch?limit=100&${query}`, { headers });
      const body = (await res.json()) as { matching?: number };
      times.push(performance.now() - t0);
      matching = body.matching ?? -1;
    }
    return `p50 ${ms(pct(times, 0.5))}, p99 ${ms(pct(times, 0.99))} (${matching.toLocaleString('en-US')} match)`;
  };
  const typed = `${bno(4242).slice(0, 3)}-${bno(4242).slice(3, 5)}`;
  console.log(`GET /watch?status=closed: ${await find('status=closed')}; ?q=${typed}: ${await find(`q=${encodeURIComponent(typed)}`)}`);

  // /verify latency idle, then during one hourly round of every entry
  const verifyLoop = async (count: number, stop: () => boolean = () => false) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      if (stop()) break;
      const t0 = performance.now();
      const res = await fetch(`${srv.url}/verify`, { method: 'POST', headers, body: JSON.stringify({ b_no: bno(i % 1000) }) });
      await res.arrayBuffer();
      times.push(performance.now() - t0);
    }
    return times;
  };
  const idle = await verifyLoop(2000);
  clock += 3600_000 + 1000;
  let done = false;
  const during = verifyLoop(1_000_000, () => done);
  const r0 = performance.now();
  let checked = 0;
  let rounds = 0;
  const stepTimes: number[] = [];
  for (;;) {
    const s0 = performance.now();
    const out = await srv.scheduler.runOnce();
    if (out.claimed === 0) break;
    stepTimes.push(performance.now() - s0);
    checked += out.checked;
    rounds++;
    if (rounds > N) throw new Error('the round did not end');
  }
  const roundS = (performance.now() - r0) / 1000;
  done = true;
  const busy = await during;
  console.log(
    `hourly round: ${checked.toLocaleString('en-US')} entries re-checked in ${roundS.toFixed(1)} s (${Math.round(checked / roundS).toLocaleString('en-US')}/s), ` +
      `${rounds} steps of ${config.watch.claimSize}, each one commit: p50 ${ms(pct(stepTimes, 0.5))}, p99 ${ms(pct(stepTimes, 0.99))}`,
  );
  console.log(`/verify (cached, one client): idle p50 ${ms(pct(idle, 0.5))} p99 ${ms(pct(idle, 0.99))}; during the round (${busy.length} requests) p50 ${ms(pct(busy, 0.5))} p99 ${ms(pct(busy, 0.99))}`);
} finally {
  await srv.stop();
  await dropBenchSchema(pgUrl, pgSchema);
  rmSync(dir, { recursive: true, force: true });
}
