// Migration 0007 moves jobs stored a row at a time (0006) to chunk records, on both engines:
// processed rows keep their results, unfinished chunks can still be worked, half-written uploads go.
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { loadMigrations } from '../src/store/migrations.ts';
import { openStore } from '../src/store/open.ts';
import type { Store } from '../src/store/store.ts';
import { describeEachStore, freshStoreConfig, PG_URL, type FreshStore } from './helpers/stores.ts';
import { chunksAfter } from '../src/batch/chunks.ts';

const T0 = '2026-11-20T00:00:00.000Z';
const A = '1248100998';
const B = '2208162517';
const answerOf = (bno: string) => ({ record: { b_no: bno, b_stt_cd: '01' }, source: 'nts', checkedAt: T0, fromCache: false, stale: false });

/** The database as 0006 left it: a job with chunk 1 (rows 1–2) processed and chunk 2 (row 3) not, and a half-written upload. */
async function oldDatabase(fresh: FreshStore): Promise<void> {
  const sql = loadMigrations(fresh.config.kind).filter((m) => m.version < '0007');
  const cfg = fresh.config;
  let run: (text: string, params?: unknown[]) => Promise<void>;
  let done: () => Promise<void>;
  if (cfg.kind === 'sqlite') {
    const db = new DatabaseSync(cfg.file);
    run = async (text, params = []) => void (params.length ? db.prepare(text).run(...(params as string[])) : db.exec(text));
    done = async () => db.close();
  } else {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(`CREATE SCHEMA ${cfg.schema!}; SET search_path TO ${cfg.schema!}`);
    let n = 0;
    run = async (text, params = []) => void (await client.query(text.replace(/\?/g, () => `$${++n}`), params).finally(() => (n = 0)));
    done = async () => client.end();
  }
  await run('CREATE TABLE schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)');
  for (const m of sql) {
    await run(m.sql);
    await run('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)', [m.version, T0]);
  }
  const bool = (b: boolean) => (cfg.kind === 'sqlite' ? (b ? 1 : 0) : b);
  await run("INSERT INTO accounts (id, email, plan, quota_limit, created_at) VALUES ('acc_m', 'm@example.com', 'business', NULL, ?)", [T0]);
  for (const [id, status] of [['job_old', 'processing'], ['job_half', 'uploading']]) {
    await run(
      `INSERT INTO batch_jobs (id, account_id, status, filename, file_kind, columns, chosen, total, distinct_numbers, processed, chunks_total, chunks_done, offline, paid, month, charged, created_at)
       VALUES (?, 'acc_m', ?, 'old.csv', 'csv', ?, ?, 3, 2, 2, 2, 1, ?, ?, '2026-11', 2, ?)`,
      [id, status, JSON.stringify(['b_no', 'name']), JSON.stringify({ bno: 'b_no', name: 'name', address: null }), bool(false), bool(false), T0],
    );
  }
  const row = (job: string, rowId: number, bno: string, name: string | null, result: object | null) =>
    run(
      'INSERT INTO batch_rows (job_id, row_id, b_no_raw, b_no, valid, name, address, cells, result, biz_status, grade, features, address_key) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?, ?)',
      [job, rowId, bno, bno, bool(true), name, JSON.stringify({ b_no: bno, name: name ?? '' }), result && JSON.stringify(result), result ? 'active' : null, name && result ? 'A' : null, name && result ? JSON.stringify({ f: 1 }) : null, name && result ? 'addr1' : null],
    );
  await row('job_old', 1, A, '한빛', { b_no: A, biz_status: 'active', grade: 'A' });
  await row('job_old', 2, B, null, { b_no: B, biz_status: 'active', grade: null });
  await row('job_old', 3, A, null, null);
  await row('job_half', 1, A, null, null);
  for (const [no, first, last, state] of [[1, 1, 2, 'done'], [2, 3, 3, 'pending']] as const) {
    await run("INSERT INTO batch_chunks (job_id, chunk_no, first_row, last_row, state, job_created_at) VALUES ('job_old', ?, ?, ?, ?, ?)", [no, first, last, state, T0]);
  }
  for (const bno of [A, B]) await run("INSERT INTO batch_numbers (job_id, b_no, answer, refunded) VALUES ('job_old', ?, ?, ?)", [bno, JSON.stringify(answerOf(bno)), bool(false)]);
  await done();
}

describeEachStore('migration 0007 (batch rows a chunk at a time)', (kind) => {
  let fresh: FreshStore;
  let store: Store;
  before(async () => {
    fresh = freshStoreConfig(kind);
    await oldDatabase(fresh);
    store = await openStore(fresh.config);
  });
  after(async () => {
    await store.close();
    await fresh.cleanup();
  });

  test('processed rows keep their results, an unfinished chunk is worked on with the recorded answers, half-written uploads are gone', async () => {
    const chunks = await chunksAfter(store.batches, 'job_old', 0, 10);
    assert.deepEqual(chunks.map((c) => [c.chunkNo, c.firstRow, c.lastRow, c.rows.map((r) => r.rowId)]), [[1, 1, 2, [1, 2]], [2, 3, 3, [3]]]);
    assert.deepEqual(chunks[0]!.rows[0], { rowId: 1, bnoRaw: A, bno: A, valid: true, name: '한빛', address: null, cells: { b_no: A, name: '한빛' } });
    assert.deepEqual(chunks[0]!.output?.scored.get(1), { result: { b_no: A, biz_status: 'active', grade: 'A' }, features: { f: 1 }, addressKey: 'addr1' });
    assert.deepEqual(chunks[0]!.output?.scored.get(2), { result: { b_no: B, biz_status: 'active', grade: null }, features: null, addressKey: null });
    assert.equal(chunks[1]!.output, null);
    const lease = await store.batches.claimChunk('w', 60_000, new Date(T0));
    assert.deepEqual([lease?.jobId, lease?.chunkNo, lease?.shared], ['job_old', 2, true]);
    assert.deepEqual(await store.batches.sharedNumbers('job_old', [A]), new Map([[A, { answered: true, answer: answerOf(A) }]]));
    assert.deepEqual(await chunksAfter(store.batches, 'job_half', 0, 10), []);
    assert.equal((await store.batches.listJobs('acc_m', 10)).length, 1);
  });
});
