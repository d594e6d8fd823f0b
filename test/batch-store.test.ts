// The batch store contract, run against both engines: charging, chunk leases, exactly-once
// completion and refunds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BatchRowInput, BatchRowResult, ChunkLease } from '../src/store/batch-store.ts';
import { openStore } from '../src/store/open.ts';
import type { Store } from '../src/store/store.ts';
import type { StatusAnswer } from '../src/registry/types.ts';
import { describeEachStore, freshStoreConfig, type FreshStore } from './helpers/stores.ts';

const T0 = new Date('2026-11-21T00:00:00Z');
const answer = { record: { b_no: '1' }, source: 'sandbox', checkedAt: T0.toISOString(), fromCache: false, stale: false } as unknown as StatusAnswer;

const result = (rowId: number, status = 'active', grade: string | null = 'A'): BatchRowResult => ({
  rowId, result: { b_no: 'x', biz_status: status }, bizStatus: status, grade, features: { status_closed: 0 }, addressKey: null,
});
const numbers = (from: number, to: number, refund: boolean) =>
  Array.from({ length: to - from + 1 }, (_, i) => ({ bno: String(1000000000 + from + i), answer: refund ? null : answer, refund }));
let seq = 0;
const at = (ms: number) => new Date(T0.getTime() + ms);

describeEachStore('batch store', (kind) => {
  let fresh: FreshStore;
  let store: Store;
  before(async () => {
    fresh = freshStoreConfig(kind);
    store = await openStore(fresh.config);
  });
  after(async () => {
    await store.close();
    await fresh.cleanup();
  });

  async function newJob(rows: number, opts: { distinct?: number; offline?: boolean; paid?: boolean } = {}) {
    const accountId = `acc_b${++seq}`;
    await store.createAccount({ id: accountId, email: `b${seq}@example.com`, plan: 'business', quotaLimit: null, createdAt: T0.toISOString() });
    const id = `job_${seq}`;
    await store.batches.createJob({
      id, accountId, filename: 'list.csv', fileKind: 'csv', columns: ['사업자등록번호', '상호'], chosen: { bno: '사업자등록번호', name: '상호', address: null },
      offline: opts.offline ?? false, paid: opts.paid ?? false, month: '2026-11', idempotencyKey: null, fingerprint: null, createdAt: at(seq).toISOString(),
    });
    const distinct = opts.distinct ?? rows;
    const input: BatchRowInput[] = Array.from({ length: rows }, (_, i) => ({
      rowId: i + 1, bnoRaw: `n${i % distinct}`, bno: String(1000000000 + (i % distinct)), valid: true,
      name: `상호${i}`, address: null, cells: { 사업자등록번호: `n${i}`, 상호: `상호${i}` },
    }));
    input.push({ rowId: rows + 1, bnoRaw: 'abc', bno: null, valid: false, name: null, address: null, cells: { 사업자등록번호: 'abc', 상호: '' } });
    await store.batches.appendRows(id, input);
    return { id, accountId };
  }


  test('an upload is invisible until finalized; finalizing counts distinct valid numbers, charges them and queues chunks', async () => {
    const { id, accountId } = await newJob(25, { distinct: 10 });
    assert.equal(await store.batches.getJob(id), null);
    const out = await store.batches.finalizeJob(id, { chunkSize: 10, limit: 100, charge: true, paid: false, now: T0 });
    assert.ok(out.ok);
    assert.equal(out.job.status, 'queued');
    assert.equal(out.job.total, 26);
    assert.equal(out.job.distinctNumbers, 10);
    assert.equal(out.job.chunksTotal, 3);
    assert.equal(out.job.charged, 10);
    assert.deepEqual(await store.getUsage(accountId, '2026-11'), { used: 10, overage: 0 });
  });

  test('over the remaining quota a job is refused with nothing charged, unless paid: then the excess is overage', async () => {
    const { id, accountId } = await newJob(30);
    await store.reserveLookups(accountId, '2026-11', 80, 100);
    const refused = await store.batches.finalizeJob(id, { chunkSize: 10, limit: 100, charge: true, paid: false, now: T0 });
    assert.deepEqual(refused, { ok: false, needed: 30, remaining: 20 });
    assert.deepEqual(await store.getUsage(accountId, '2026-11'), { used: 80, overage: 0 });
    const paid = await newJob(30, { paid: true });
    await store.reserveLookups(paid.accountId, '2026-11', 80, 100);
    const ok = await store.batches.finalizeJob(paid.id, { chunkSize: 10, limit: 100, charge: true, paid: true, now: T0 });
    assert.ok(ok.ok);
    assert.deepEqual([ok.job.charged, ok.job.overage], [20, 10]);
    assert.deepEqual(await store.getUsage(paid.accountId, '2026-11'), { used: 100, overage: 10 });
  });

  test('chunks are leased once; completion is exactly once, refunds once per number, and the last chunk finishes the job', async () => {
    const { id, accountId } = await newJob(20, { paid: true });
    await store.reserveLookups(accountId, '2026-11', 95, 100);
    const fin = await store.batches.finalizeJob(id, { chunkSize: 10, limit: 100, charge: true, paid: true, now: T0 });
    assert.ok(fin.ok);
    assert.deepEqual([fin.job.charged, fin.job.overage], [5, 15]);
    const leases: ChunkLease[] = [];
    const holders = new Map<ChunkLease, string>();
    // earlier tests' jobs come first in the queue (oldest first): finish their chunks on the way
    for (let i = 0; i < 50 && leases.length < 3; i++) {
      const l = await store.batches.claimChunk(`w${i}`, 60_000, T0);
      if (!l) break;
      if (l.jobId === id) {
        leases.push(l);
        holders.set(l, `w${i}`);
      } else await store.batches.completeChunk(l, `w${i}`, [], [], T0);
    }
    assert.equal(leases.length, 3, 'rows 1–10, 11–20 and the unreadable row 21');
    assert.equal((await store.batches.getJob(id))?.status, 'processing');
    const [a, b, c] = leases as [ChunkLease, ChunkLease, ChunkLease];
    assert.equal(await store.batches.completeChunk(a, 'someone-else', [result(1)], [], T0), false, 'not the holder');
    assert.equal(await store.batches.completeChunk(a, holders.get(a)!, Array.from({ length: 10 }, (_, i) => result(i + 1, i < 4 ? 'unknown' : 'active', i < 4 ? null : 'A')), [...numbers(0, 3, true), ...numbers(4, 9, false)], at(1)), true);
    assert.equal(await store.batches.completeChunk(a, holders.get(a)!, [result(1)], numbers(0, 3, true), at(2)), false, 'a done chunk cannot complete twice');
    // the same unanswered numbers reported again by another chunk are not refunded twice
    assert.equal(await store.batches.completeChunk(b, holders.get(b)!, Array.from({ length: 10 }, (_, i) => result(i + 11)), [...numbers(0, 3, true), ...numbers(10, 19, false)], at(3)), true);
    const mid = await store.batches.getJob(id);
    assert.deepEqual([mid?.processed, mid?.refunded, mid?.overage, mid?.charged, mid?.status], [20, 4, 11, 5, 'processing']);
    assert.deepEqual(await store.getUsage(accountId, '2026-11'), { used: 100, overage: 11 }, 'overage refunded first');
    assert.equal(await store.batches.completeChunk(c, holders.get(c)!, [result(21, 'invalid', null)], [], at(4)), true);
    const done = await store.batches.getJob(id);
    assert.equal(done?.status, 'done');
    assert.equal(done?.finishedAt, at(4).toISOString());
    assert.deepEqual(await store.batches.counts(id), { byStatus: { unknown: 4, active: 16, invalid: 1 }, byGrade: { A: 16 } });
    const known = await store.batches.jobNumbers(id, ['1000000000', '1000000005', '1999999999']);
    assert.deepEqual([...known.keys()].toSorted(), ['1000000000', '1000000005']);
    assert.equal(known.get('1000000000'), null);
    assert.equal((await store.batches.rowsAfter(id, 18, 10)).map((r) => r.rowId).join(), '19,20,21');
    assert.equal((await store.batches.getRow(id, 5))?.result?.biz_status, 'active');
  });

  test('an expired lease is taken over and the old holder can no longer complete', async () => {
    const { id } = await newJob(5);
    await store.batches.finalizeJob(id, { chunkSize: 10, limit: 1000, charge: true, paid: false, now: T0 });
    let first: ChunkLease | null;
    do first = await store.batches.claimChunk('old', 1000, at(0));
    while (first && first.jobId !== id && (await store.batches.completeChunk(first, 'old', [], [], T0)));
    assert.ok(first);
    assert.equal((await store.batches.claimChunk('new', 1000, at(500)))?.jobId === id, false, 'still leased');
    const again = await store.batches.claimChunk('new', 1000, at(2000));
    assert.equal(again?.jobId, id);
    assert.equal(again?.attempts, 2);
    assert.equal(await store.batches.completeChunk(first, 'old', [result(1)], [], at(2100)), false);
    assert.equal(await store.batches.completeChunk(again, 'new', [result(1)], [], at(2200)), true);
  });

  test('abandoned uploads are swept; a discarded job leaves nothing', async () => {
    const { id } = await newJob(3);
    assert.equal(await store.batches.sweepUploads(at(-1000).toISOString()), 0);
    assert.ok((await store.batches.sweepUploads(at(10_000_000).toISOString())) >= 1);
    assert.equal(await store.batches.getRow(id, 1), null);
    const other = await newJob(3);
    await store.batches.finalizeJob(other.id, { chunkSize: 10, limit: 1000, charge: false, paid: false, now: T0 });
    await store.batches.discardJob(other.id);
    assert.equal(await store.batches.getJob(other.id), null);
    assert.equal(await store.batches.getRow(other.id, 1), null);
  });
});
