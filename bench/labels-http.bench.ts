// Part of `npm run bench:labels`: recording outcomes over HTTP, on a job of BENCH_LABEL_ROWS
// (default 20,000) named rows with addresses on the sandbox registry. Three ways a customer does
// it: POST /batch/{id}/label one row at a time (BENCH_SINGLE labels, default 3,000, in random row
// order, 8 in flight), every row in one JSON array, and every row again as an uploaded CSV of
// returned mail (number and 반송사유, the job's numbers matched). Prints labels/s; never fails on
// a time. DATABASE_URL: PostgreSQL instead of the embedded store.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startChild, dropBenchSchema } from './lib.ts';

const rows = Number(process.env.BENCH_LABEL_ROWS ?? 20_000);
const single = Number(process.env.BENCH_SINGLE ?? 3_000);
const IN_FLIGHT = 8;
const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-labels-http-'));
const pgUrl = process.env.DATABASE_URL || undefined;
const pgSchema = `bench_${randomBytes(6).toString('hex')}`;
const env = { DATA_DIR: path.join(dir, 'data'), LOG_LEVEL: 'warn', BATCH_MAX_ROWS: String(rows), DATABASE_URL: pgUrl ?? '', ...(pgUrl ? { DATABASE_SCHEMA: pgSchema } : {}) };
const logFile = path.join(dir, 'server.log');
const ADDRESSES = ['서울 강남구 테헤란로 152', '서울특별시 중구 세종대로 110', '경기 성남시 분당구 불정로 6', '부산 해운대구 센텀중앙로 79'];
const REASONS = ['수취인불명', '이사불명', '폐문부재', '주소불명', '수취거절', '기타'];

const bno = (i: number) => {
  const nine = String(100_000_000 + ((i * 7_919) % 899_999_999)).padStart(9, '0');
  return nine + checkDigitOf(nine);
};

const server = await startChild([path.join(root, 'src/main.ts')], env, logFile);
try {
  const cli = (...args: string[]) =>
    JSON.parse(execFileSync(process.execPath, ['--disable-warning=ExperimentalWarning', path.join(root, 'src/cli/main.ts'), ...args], { env: { ...process.env, ...env } }).toString()) as Record<string, string>;
  const acc = cli('accounts', 'create', '--email', `bench-${Date.now()}@example.com`, '--plan', 'enterprise');
  cli('accounts', 'set-quota', '--account', acc.account_id!, '--limit', String(rows * 3));
  const headers = { 'x-api-key': acc.api_key! };

  const lines = ['사업자등록번호,상호,주소', ...Array.from({ length: rows }, (_, i) => `${bno(i)},상호${i},${ADDRESSES[i % ADDRESSES.length]} ${(i % 40) + 1}층`)];
  const form = new FormData();
  form.append('file', new Blob([lines.join('\n')], { type: 'text/csv' }), 'customers.csv');
  const up = await fetch(`${server.url}/batch`, { method: 'POST', headers, body: form });
  if (up.status !== 202) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const { job_id: job } = (await up.json()) as { job_id: string };
  // bounded wait for the job
  for (let t = 0, status = ''; status !== 'done'; t++) {
    if (t > 1200) throw new Error('the job did not finish in 10 minutes');
    await new Promise((r) => setTimeout(r, 500));
    status = ((await (await fetch(`${server.url}/batch/${job}?preview=0`, { headers })).json()) as { status: string }).status;
    if (status === 'failed') throw new Error('the job failed');
  }
  console.log(`bench:labels (HTTP) — a job of ${rows.toLocaleString('en-US')} named rows, store ${pgUrl ? 'postgres' : 'sqlite'}; load average ${readFileSync('/proc/loadavg', 'utf8').trim()}`);

  // one row at a time, random order, IN_FLIGHT at once
  let next = 0;
  let failed = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < single) {
        const i = next++;
        const rowId = 1 + ((i * 104_729) % rows);
        const res = await fetch(`${server.url}/batch/${job}/label`, {
          method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ row_id: rowId, bounced: i % 5 === 0, reason: i % 5 === 0 ? REASONS[i % REASONS.length] : null }),
        });
        if (res.status !== 200) failed++;
        await res.arrayBuffer();
      }
    }),
  );
  const singleS = (performance.now() - t0) / 1000;
  console.log(`one at a time (${IN_FLIGHT} in flight): ${single.toLocaleString('en-US')} labels in ${singleS.toFixed(2)} s = ${Math.round(single / singleS).toLocaleString('en-US')} labels/s${failed ? `, ${failed} not 200` : ''}`);

  const array = Array.from({ length: rows }, (_, i) => ({ row_id: i + 1, ...(i % 4 === 0 ? { reason: REASONS[i % REASONS.length] } : { bounced: false }) }));
  const t1 = performance.now();
  const bulk = await fetch(`${server.url}/batch/${job}/labels`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(array) });
  const bulkBody = (await bulk.json()) as { recorded: number };
  const bulkS = (performance.now() - t1) / 1000;
  console.log(`one JSON array: ${bulkBody.recorded.toLocaleString('en-US')} labels in ${bulkS.toFixed(2)} s = ${Math.round(bulkBody.recorded / bulkS).toLocaleString('en-US')} labels/s (status ${bulk.status})`);

  const csv = ['사업자번호,반송사유', ...Array.from({ length: rows }, (_, i) => `${bno(i)},${REASONS[i % REASONS.length]}`)].join('\r\n');
  const fileForm = new FormData();
  fileForm.append('file', new Blob([csv], { type: 'text/csv' }), '반송목록.csv');
  const t2 = performance.now();
  const fileRes = await fetch(`${server.url}/batch/${job}/labels`, { method: 'POST', headers, body: fileForm });
  const fileBody = (await fileRes.json()) as { recorded: number };
  const fileS = (performance.now() - t2) / 1000;
  console.log(`a CSV of returned mail by number: ${fileBody.recorded.toLocaleString('en-US')} labels in ${fileS.toFixed(2)} s = ${Math.round(fileBody.recorded / fileS).toLocaleString('en-US')} labels/s (status ${fileRes.status})`);
} finally {
  await server.stop();
  await dropBenchSchema(pgUrl, pgSchema);
  rmSync(dir, { recursive: true, force: true });
}
