// `npm run bench:soak`: does the database stop growing? Steady traffic for SOAK_DAYS simulated
// days (default 30) in one process whose clock the bench moves: each day a BUSINESS account makes
// SOAK_VERIFY single lookups of numbers never seen before (each a new status-cache entry and a new
// evidence record), uploads a list of SOAK_ROWS named rows (fresh numbers and addresses), and its
// watch list of SOAK_WATCH entries is re-checked; then the retention sweep runs and the database's
// size is printed with its biggest tables. Retentions are shortened (SOAK_RETENTION_DAYS, default
// 7, for jobs, status cache, webhook log and evidence) so the plateau shows within the run; the
// defaults only move where it lies. On PostgreSQL each simulated day ends with the plain VACUUM
// its autovacuum would have run in a real day. Prints figures; never fails on a size.
// DATABASE_URL: PostgreSQL instead of the embedded store.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/start/server.ts';
import { createAccount } from '../src/accounts/accounts.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import type { Sql } from '../src/store/sql.ts';
import { dropBenchSchema } from './lib.ts';

const DAYS = Number(process.env.SOAK_DAYS ?? 30);
const VERIFY = Number(process.env.SOAK_VERIFY ?? 2000);
const ROWS = Number(process.env.SOAK_ROWS ?? 5000);
const WATCH = Number(process.env.SOAK_WATCH ?? 500);
const KEEP = String(process.env.SOAK_RETENTION_DAYS ?? 7);
const DAY = 86_400_000;

const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-soak-'));
const pgUrl = process.env.DATABASE_URL || undefined;
const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
let clock = Date.parse('2026-01-01T00:00:00Z');
const config = loadConfig({
  PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', DATA_DIR: path.join(dir, 'data'), WATCH_POLL_SECONDS: '3600', WATCH_SCHEDULER: 'off',
  RETENTION_SWEEP_SECONDS: '86400', BATCH_RETENTION_DAYS: KEEP, STATUS_CACHE_RETENTION_DAYS: KEEP, WEBHOOK_LOG_RETENTION_DAYS: KEEP, EVIDENCE_RETENTION_DAYS: KEEP,
  ...(pgUrl ? { DATABASE_URL: pgUrl, DATABASE_SCHEMA: pgSchema } : {}),
});
const srv = await startServer(config, { now: () => new Date(clock) });
const sql = (srv.store.batches as unknown as { sql: Sql }).sql;

let seq = 0;
/** a number never used before in this run */
const fresh = () => {
  const nine = String(100_000_000 + ((++seq * 7_919) % 899_999_999)).padStart(9, '0');
  return nine + checkDigitOf(nine);
};
const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

async function size(): Promise<{ total: number; tables: [string, number][] }> {
  if (pgUrl) {
    const rows = await sql.all('SELECT tablename AS t, pg_total_relation_size(quote_ident(tablename)) AS b FROM pg_tables WHERE schemaname = current_schema()');
    const tables = rows.map((r): [string, number] => [String(r.t), Number(r.b)]).toSorted((a, b) => b[1] - a[1]);
    return { total: tables.reduce((a, [, b]) => a + b, 0), tables };
  }
  const data = path.join(dir, 'data');
  const total = readdirSync(data).reduce((a, f) => a + statSync(path.join(data, f)).size, 0);
  const rows = await sql.all('SELECT name AS t, sum(pgsize) AS b FROM dbstat GROUP BY name').catch(() => []);
  return { total, tables: rows.map((r): [string, number] => [String(r.t), Number(r.b)]).toSorted((a, b) => b[1] - a[1]) };
}

try {
  const { apiKey } = await createAccount(srv.store, `soak-${Date.now()}@example.com`, 'business');
  const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
  const me = (await (await fetch(`${srv.url}/me`, { headers })).json()) as { account_id: string };
  await srv.store.accounts.setQuotaLimit(me.account_id, (VERIFY + ROWS + WATCH) * (DAYS + 2));
  const watchBody = Array.from({ length: WATCH }, (_, i) => ({ biz_no: fresh(), name: `감시상회${i}`, address: `서울특별시 중구 세종대로 ${i + 1}` }));
  for (let i = 0; i < watchBody.length; i += 1000) {
    const res = await fetch(`${srv.url}/watch`, { method: 'POST', headers, body: JSON.stringify(watchBody.slice(i, i + 1000)) });
    if (res.status !== 207) throw new Error(`watch: ${res.status} ${await res.text()}`);
  }
  console.log(`bench:soak — ${DAYS} days, each: ${VERIFY} new /verify, a ${ROWS}-row named list, ${WATCH} watched re-checked; retention ${KEEP} days; store ${pgUrl ? 'postgres' : 'sqlite'}`);
  console.log('day | database | biggest tables');
  const t0 = performance.now();
  for (let day = 1; day <= DAYS; day++) {
    for (let i = 0; i < VERIFY; i++) {
      const res = await fetch(`${srv.url}/verify`, { method: 'POST', headers, body: JSON.stringify({ b_no: fresh() }) });
      await res.arrayBuffer();
    }
    const rows = Array.from({ length: ROWS }, (_, i) => `${fresh()},거래처${day}-${i},서울특별시 강남구 테헤란로 ${(i % 500) + 1}`);
    const form = new FormData();
    form.append('file', new Blob([`사업자등록번호,상호,주소\n${rows.join('\n')}\n`], { type: 'text/csv' }), `day${day}.csv`);
    const up = await fetch(`${srv.url}/batch`, { method: 'POST', headers: { 'x-api-key': apiKey }, body: form });
    const job = (await up.json()) as { job_id: string };
    for (let i = 0; i < 600; i++) {
      const st = (await (await fetch(`${srv.url}/batch/${job.job_id}?preview=0`, { headers })).json()) as { status: string };
      if (st.status === 'done' || st.status === 'failed') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    clock += DAY;
    for (let r = 0; r < 1000 && (await srv.scheduler.runOnce()).claimed > 0; r++);
    for (let r = 0; r < 1000; r++) {
      const out = await srv.retention.runOnce();
      if (process.env.SOAK_DEBUG) console.log(JSON.stringify(out));
      if (out.chunksDeleted === 0 && out.evidenceDeleted < 1000 && out.housekeeping < 1000) break;
    }
    if (pgUrl) {
      // a real day gives autovacuum ~1,440 chances to make deleted rows' space reusable; a
      // simulated day lasts seconds, so the bench does what it would have done (a plain VACUUM:
      // space reused, files not shrunk)
      for (const r of await sql.all('SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema()')) await sql.run(`VACUUM "${String(r.t)}"`);
    }
    const s = await size();
    console.log(`${String(day).padStart(3)} | ${mb(s.total).padStart(9)} | ${s.tables.slice(0, 4).map(([t, b]) => `${t} ${mb(b)}`).join(', ')}`);
  }
  console.log(`simulated ${DAYS} days in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
} finally {
  await srv.stop();
  await dropBenchSchema(pgUrl, pgSchema);
  rmSync(dir, { recursive: true, force: true });
}
