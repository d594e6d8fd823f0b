// `npm run bench:labels`: what an account's recorded outcomes cost. The history a scored row
// reads (LabelStore.counts: its number's and its address's outcomes) with 0, 10,000 and
// BENCH_LABELS labels in the account, and a pooled refit of those labels across four accounts.
// Prints the figures; never fails on a time.
//   BENCH_LABELS (default 100000), BENCH_READS (default 5000), DATABASE_URL: PostgreSQL instead of the embedded store
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PRIOR_MODEL } from '../src/domain/model/prior.ts';
import { runFit } from '../src/jobs/refit-worker.ts';
import { openStore } from '../src/store/open.ts';

const total = Number(process.env.BENCH_LABELS ?? 100_000);
const reads = Number(process.env.BENCH_READS ?? 5_000);
const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-bench-labels-'));
const pg = process.env.DATABASE_URL;
const schema = `bench_labels_${process.pid}`;
const store = await openStore(pg ? { kind: 'postgres', url: pg, schema } : { kind: 'sqlite', file: path.join(dir, 'db.sqlite') });

const names = Object.keys(PRIOR_MODEL.weights);
const at = new Date().toISOString();
const accounts = ['acct_a', 'acct_b', 'acct_c', 'acct_d'];
for (const id of accounts) await store.accounts.create({ id, email: `${id}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: at });

async function label(accountId: string, i: number): Promise<void> {
  await store.labels.put({
    accountId, jobId: 'job_bench', rowId: i, bno: String(1_000_000_000 + (i % 50_000)), addressKey: `bld_${i % 30_000}`, bounced: i % 7 === 0, reason: null, cause: null,
    features: { [names[i % names.length]!]: 1, [names[(i * 3) % names.length]!]: 1 }, modelVersion: PRIOR_MODEL.version, at,
  });
}

async function readCost(): Promise<number> {
  const t0 = performance.now();
  for (let i = 0; i < reads; i++) await store.labels.counts('acct_a', String(1_000_000_000 + ((i * 7919) % 60_000)), `bld_${(i * 104_729) % 40_000}`);
  return ((performance.now() - t0) * 1000) / reads;
}

const rows: string[][] = [];
let held = 0;
for (const upTo of [0, 10_000, total]) {
  const t0 = performance.now();
  for (; held < upTo; held++) await label('acct_a', held + 1);
  const writeMs = performance.now() - t0;
  rows.push([String(upTo), (await readCost()).toFixed(1), upTo ? ((writeMs * 1000) / Math.max(1, upTo - (upTo === total ? 10_000 : 0))).toFixed(0) : '–']);
}
for (const id of accounts.slice(1)) for (let i = 1; i <= 2_000; i++) await label(id, i);

const examples = await store.labels.forFit(200_000);
const t0 = performance.now();
const fit = runFit({ base: PRIOR_MODEL, examples, now: at });
const fitMs = performance.now() - t0;

console.log(`store: ${pg ? 'postgres' : 'sqlite'}; ${reads} history reads per row of the table`);
console.log('| labels in the account | µs per history read | µs per label written |');
console.log('|---:|---:|---:|');
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
console.log(`pooled refit of ${examples.length} labels from ${accounts.length} accounts: ${fitMs.toFixed(0)} ms (model ${fit.model.version})`);

if (pg) await (store as unknown as { dropSchema(): Promise<void> }).dropSchema();
await store.close();
rmSync(dir, { recursive: true, force: true });
