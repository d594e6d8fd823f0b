// The batch store contract, run against both engines: charging, chunk leases, exactly-once
// completion and refunds, shared numbers recorded once per job.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { BatchRowInput, ChunkCompletion, ChunkLease, ChunkOutput, NumberOutcome } from '../src/domain/batch.ts';
import type { Store } from '../src/store/store.ts';
import type { StatusAnswer } from '../src/domain/status.ts';
import { describeEachStore, useFreshStore } from './helpers/stores.ts';
import { appendChunk, chunksAfter, completeChunk } from '../src/batch/chunks.ts';

const T0 = new Date('2026-11-21T00:00:00Z');
const answer = (bno: string, checkedAt = T0.toISOString()) => ({ record: { b_no: bno, b_stt_cd: '01' }, source: 'sandbox', checkedAt, fromCache: false, stale: false }) as unknown as StatusAnswer;
const bnoOf = (i: number) => String(1000000000 + i);
let seq = 0;
const at = (ms: number) => new Date(T0.getTime() + ms);

/** A completion for some rows: every number answered (or not, when `refund`), counted as active / unknown. */
function completion(rows: number, numbers: NumberOutcome[], scored: ChunkOutput['scored'] = new Map()): ChunkCompletion {
  const unknown = numbers.filter((n) => !n.answer).length;
  return {
    output: { answers: new Map(numbers.map((n) => [n.bno, n.answer])), scored },
    numbers,
    counts: { byStatus: { ...(rows - unknown > 0 ? { active: rows - unknown } : {}), ...(unknown > 0 ? { unknown } : {}) }, byGrade: {} },
    rows,
  };
}
const outcome = (i: number, opts: { refund?: boolean; shared?: boolean; checkedAt?: string } = {}): NumberOutcome => ({
  bno: bnoOf(i), answer: opts.refund ? null : answer(bnoOf(i), opts.checkedAt), refund: opts.refund ?? false, shared: opts.shared ?? false,
});

describeEachStore('batch store', (kind) => {
  const opened = useFreshStore(kind);
  let store: Store;
  before(() => {
    store = opened.store;
  });

  /** A job of `rows` rows (numbers i % distinct) in chunks of `chunkSize`, plus one unreadable row. */
  async function newJob(rows: number, opts: { distinct?: number; chunkSize?: number; paid?: boolean } = {}) {
    const accountId = `acc_b${++seq}`;
    await store.accounts.create({ id: accountId, email: `b${seq}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: T0.toISOString() });
    const id = `job_${seq}`;
    await store.batches.createJob({
      id, accountId, filename: 'list.csv', fileKind: 'csv', columns: ['사업자등록번호', '상호'], chosen: { bno: '사업자등록번호', name: '상호', address: null },
      offline: false, paid: opts.paid ?? false, month: '2026-11', idempotencyKey: null, fingerprint: null, createdAt: at(seq).toISOString(),
      uploadLeaseUntil: at(seq + 30_000).toISOString(),
    });
    const distinct = opts.distinct ?? rows;
    const chunkSize = opts.chunkSize ?? 10;
    const input: BatchRowInput[] = Array.from({ length: rows }, (_, i) => ({
      rowId: i + 1, bnoRaw: `n${i % distinct}`, bno: bnoOf(i % distinct), valid: true, name: i % 2 ? `상호${i}` : null, address: null, cells: { 사업자등록번호: `n${i}`, 상호: i % 2 ? `상호${i}` : '' },
    }));
    input.push({ rowId: rows + 1, bnoRaw: 'abc', bno: null, valid: false, name: null, address: null, cells: { 사업자등록번호: 'abc', 상호: '' } });
    for (let c = 0; c * chunkSize < input.length; c++) await appendChunk(store.batches, id, c + 1, input.slice(c * chunkSize, (c + 1) * chunkSize), ['사업자등록번호', '상호'], { bno: '사업자등록번호', name: '상호', address: null });
    // which numbers occur in more than one chunk, as the upload counts them
    const chunksOf = new Map<string, Set<number>>();
    input.forEach((r, i) => r.bno && chunksOf.set(r.bno, (chunksOf.get(r.bno) ?? new Set()).add(Math.floor(i / chunkSize) + 1)));
    const shared = [...chunksOf].filter(([, c]) => c.size > 1);
    const finalize = (o: { limit: number; charge?: boolean; paid?: boolean }) =>
      store.batches.finalizeJob(id, {
        limit: o.limit, charge: o.charge ?? true, paid: o.paid ?? opts.paid ?? false, now: T0, total: input.length, distinct,
        sharedNumbers: shared.map(([b]) => b), sharedChunks: [...new Set(shared.flatMap(([, c]) => [...c]))],
      });
    return { id, accountId, input, finalize };
  }

  /** Claims until this job's chunks come up, finishing other jobs' chunks met on the way (oldest first). */
  async function claimOf(jobId: string, holder: string, now = T0): Promise<ChunkLease | null> {
    for (let i = 0; i < 100; i++) {
      const l = await store.batches.claimChunk(holder, 60_000, now);
      if (!l || l.jobId === jobId) return l;
      await completeChunk(store.batches, l, holder, completion(0, []), now);
    }
    return null;
  }

  test('an upload is invisible until finalized; finalizing charges the distinct numbers and queues the chunks', async () => {
    const { id, accountId, finalize } = await newJob(25, { distinct: 10 });
    assert.equal(await store.batches.jobById(id), null);
    const out = await finalize({ limit: 100 });
    assert.ok(out.ok);
    assert.equal(out.job.status, 'queued');
    assert.equal(out.job.total, 26);
    assert.equal(out.job.distinctNumbers, 10);
    assert.equal(out.job.chunksTotal, 3);
    assert.equal(out.job.charged, 10);
    assert.deepEqual(await store.usage.get(accountId, '2026-11'), { used: 10, overage: 0 });
    const chunks = await chunksAfter(store.batches, id, 0, 10);
    assert.deepEqual(chunks.map((c) => [c.chunkNo, c.firstRow, c.lastRow, c.rows.length, c.output]), [[1, 1, 10, 10, null], [2, 11, 20, 10, null], [3, 21, 26, 6, null]]);
    assert.deepEqual(chunks[2]!.rows.at(-1), { rowId: 26, bnoRaw: 'abc', bno: null, valid: false, name: null, address: null, cells: { 사업자등록번호: 'abc', 상호: '' } });
    assert.deepEqual((await chunksAfter(store.batches, id, 15, 10)).map((c) => c.chunkNo), [2, 3], 'chunks holding rows after 15');
  });

  test('over the remaining quota a job is refused with nothing charged, unless paid: then the excess is overage', async () => {
    const refusedJob = await newJob(30);
    await store.usage.reserve(refusedJob.accountId, '2026-11', 80, 100);
    assert.deepEqual(await refusedJob.finalize({ limit: 100 }), { ok: false, needed: 30, remaining: 20 });
    assert.deepEqual(await store.usage.get(refusedJob.accountId, '2026-11'), { used: 80, overage: 0 });
    // a list repeating its numbers over chunks: refused before its shared numbers are recorded
    const repeating = await newJob(30, { distinct: 10 });
    await store.usage.reserve(repeating.accountId, '2026-11', 95, 100);
    assert.deepEqual(await repeating.finalize({ limit: 100 }), { ok: false, needed: 10, remaining: 5 });
    assert.equal((await store.batches.sharedNumbers(repeating.id, Array.from({ length: 10 }, (_, i) => bnoOf(i)))).size, 0);
    const paid = await newJob(30, { paid: true });
    await store.usage.reserve(paid.accountId, '2026-11', 80, 100);
    const ok = await paid.finalize({ limit: 100 });
    assert.ok(ok.ok);
    assert.deepEqual([ok.job.charged, ok.job.overage], [20, 10]);
    assert.deepEqual(await store.usage.get(paid.accountId, '2026-11'), { used: 100, overage: 10 });
  });

  test('chunks are leased once; completion is exactly once, refunds once per number, and the last chunk finishes the job', async () => {
    // 20 rows over 10 numbers in chunks of 10: every number is in chunks 1 and 2 (shared); row 21 is unreadable
    const { id, accountId, finalize } = await newJob(20, { distinct: 10, paid: true });
    await store.usage.reserve(accountId, '2026-11', 95, 100);
    const fin = await finalize({ limit: 100 });
    assert.ok(fin.ok);
    assert.deepEqual([fin.job.charged, fin.job.overage], [5, 5]);
    const a = await claimOf(id, 'wa');
    const b = await claimOf(id, 'wb');
    const c = await claimOf(id, 'wc');
    assert.ok(a && b && c);
    assert.deepEqual([a.chunkNo, a.shared, b.chunkNo, b.shared, c.chunkNo, c.shared], [1, true, 2, true, 3, false]);
    assert.equal((await store.batches.jobById(id))?.status, 'processing');
    assert.deepEqual(await store.batches.sharedNumbers(id, [bnoOf(0), bnoOf(5), '1999999999']), new Map([[bnoOf(0), { answered: false }], [bnoOf(5), { answered: false }]]));

    const first = completion(10, Array.from({ length: 10 }, (_, i) => outcome(i, { refund: i < 4, shared: true })), new Map([[2, { result: { biz_status: 'active', grade: 'A' }, features: { f: 1 }, addressKey: 'k' }]]));
    assert.deepEqual(await completeChunk(store.batches, a, 'someone-else', first, T0), { status: 'lost' }, 'not the holder');
    assert.deepEqual(await completeChunk(store.batches, a, 'wa', first, at(1)), { status: 'done' });
    assert.deepEqual(await completeChunk(store.batches, a, 'wa', first, at(2)), { status: 'lost' }, 'a done chunk cannot complete twice');
    const known = await store.batches.sharedNumbers(id, [bnoOf(0), bnoOf(5)]);
    assert.deepEqual(known.get(bnoOf(0)), { answered: true, answer: null });
    assert.deepEqual(known.get(bnoOf(5)), { answered: true, answer: answer(bnoOf(5)) });
    // chunk 2 took the recorded answers (it looked nothing up): no second refund
    assert.deepEqual(await completeChunk(store.batches, b, 'wb', { ...completion(10, []), output: first.output, counts: first.counts }, at(3)), { status: 'done' });
    const mid = await store.batches.jobById(id);
    assert.deepEqual([mid?.processed, mid?.refunded, mid?.overage, mid?.charged, mid?.status], [20, 4, 1, 5, 'processing']);
    assert.deepEqual(await store.usage.get(accountId, '2026-11'), { used: 100, overage: 1 }, 'overage refunded first');
    assert.deepEqual(await completeChunk(store.batches, c, 'wc', { ...completion(0, []), counts: { byStatus: { invalid: 1 }, byGrade: {} }, rows: 1 }, at(4)), { status: 'done' });
    const done = await store.batches.jobById(id);
    assert.equal(done?.status, 'done');
    assert.equal(done?.finishedAt, at(4).toISOString());
    assert.deepEqual(await store.batches.counts(id), { byStatus: { unknown: 8, active: 12, invalid: 1 }, byGrade: {} });
    const [one] = await chunksAfter(store.batches, id, 0, 1);
    assert.deepEqual(one?.output, first.output, 'the output reads back as written');
  });

  test('a number that is not shared is refunded by its own chunk, once', async () => {
    const { id, accountId, finalize } = await newJob(5);
    const fin = await finalize({ limit: 1000 });
    assert.ok(fin.ok);
    const l = await claimOf(id, 'w');
    assert.ok(l && !l.shared);
    assert.deepEqual(await completeChunk(store.batches, l, 'w', completion(5, [outcome(0, { refund: true }), outcome(1), outcome(2), outcome(3), outcome(4)]), T0), { status: 'done' });
    assert.equal((await store.batches.jobById(id))?.refunded, 1);
    assert.deepEqual(await store.usage.get(accountId, '2026-11'), { used: 4, overage: 0 });
  });

  test('a shared number recorded first by another chunk with another answer sends the chunk back with that answer, writing nothing', async () => {
    const { id, finalize } = await newJob(20, { distinct: 10 });
    assert.ok((await finalize({ limit: 1000 })).ok);
    const a = (await claimOf(id, 'wa'))!;
    const b = (await claimOf(id, 'wb'))!;
    const numbersA = Array.from({ length: 10 }, (_, i) => outcome(i, { shared: true }));
    assert.deepEqual(await completeChunk(store.batches, a, 'wa', completion(10, numbersA), T0), { status: 'done' });
    // chunk 2 looked up the same numbers meanwhile: equal answers are fine, a different one is not
    const numbersB = Array.from({ length: 10 }, (_, i) => outcome(i, { shared: true, checkedAt: i === 3 ? at(5).toISOString() : undefined }));
    const out = await completeChunk(store.batches, b, 'wb', completion(10, numbersB), at(6));
    assert.equal(out.status, 'conflict');
    assert.deepEqual(out.status === 'conflict' && [...out.answers], [[bnoOf(3), answer(bnoOf(3))]]);
    assert.equal((await store.batches.jobById(id))?.processed, 10, 'nothing of chunk 2 was written');
    assert.deepEqual(await completeChunk(store.batches, b, 'wb', completion(10, numbersA), at(7)), { status: 'done' });
    assert.equal((await store.batches.jobById(id))?.processed, 20);
  });

  test('an expired lease is taken over and the old holder can no longer complete', async () => {
    const { id, finalize } = await newJob(5);
    await finalize({ limit: 1000 });
    const first = await claimOf(id, 'old', at(0));
    assert.ok(first);
    assert.equal((await store.batches.claimChunk('new', 1000, at(500)))?.jobId === id, false, 'still leased');
    const again = await store.batches.claimChunk('new', 1000, at(70_000));
    assert.equal(again?.jobId, id);
    assert.equal(again?.attempts, 2);
    assert.equal((await completeChunk(store.batches, first, 'old', completion(1, []), at(70_100))).status, 'lost');
    assert.equal((await completeChunk(store.batches, again, 'new', completion(1, []), at(70_200))).status, 'done');
  });

  test('an upload whose lease runs out is swept with its chunks; a renewed one is not; a discarded job leaves nothing', async () => {
    const { id } = await newJob(3);
    const live = await newJob(3);
    const leased = at(seq + 30_000).getTime();
    assert.equal(await store.batches.sweepUploads(at(-1000).toISOString()), 0);
    // the live upload renews its lease; the other one's process has stopped doing so
    assert.equal(await store.batches.renewUpload(live.id, new Date(leased + 60_000).toISOString()), true);
    assert.ok((await store.batches.sweepUploads(new Date(leased + 1000).toISOString())) >= 1);
    assert.deepEqual(await chunksAfter(store.batches, id, 0, 10), []);
    assert.equal(await store.batches.renewUpload(id, new Date(leased + 60_000).toISOString()), false, 'a swept upload cannot be renewed');
    await live.finalize({ limit: 1000, charge: false });
    assert.notEqual(await store.batches.jobById(live.id), null);
    assert.equal(await store.batches.renewUpload(live.id, new Date(leased + 90_000).toISOString()), false, 'a finalized job holds no lease');
    const other = await newJob(3);
    await other.finalize({ limit: 1000, charge: false });
    await store.batches.discardJob(other.id);
    assert.equal(await store.batches.jobById(other.id), null);
    assert.deepEqual(await chunksAfter(store.batches, other.id, 0, 10), []);
  });
});
