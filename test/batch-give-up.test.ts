// A chunk that fails on every attempt does not leave a job pending and charged: the worker settles
// it (its rows unknown, the lookups it never answered given back), the job's other chunks are
// processed as usual, and the job ends `failed` with the reason, its counts adding up to its rows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rowsAfter } from '../src/batch/job-rows.ts';
import { checkDigitOf, hasValidCheckDigit } from '../src/domain/bizno.ts';
import { BatchWorker } from '../src/jobs/batch-worker.ts';
import { createStatusService } from '../src/registry/status-service.ts';
import type { CachedStatus, Registry } from '../src/domain/status.ts';
import type { BatchRowInput } from '../src/domain/batch.ts';
import type { Account } from '../src/domain/account.ts';
import type { AssessService } from '../src/verification/assess-service.ts';
import { describeEachStore, useFreshStore } from './helpers/stores.ts';
import { appendChunk } from '../src/batch/chunks.ts';

const NOW = new Date('2026-11-24T03:00:00.000Z');
const valid = (i: number) => {
  const nine = String(400000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
const row = (rowId: number, bno: string, name: string | null = null): BatchRowInput => {
  const ok = /^\d{10}$/.test(bno);
  return { rowId, bnoRaw: bno, bno: ok ? bno : null, valid: ok && hasValidCheckDigit(bno), name, address: null, cells: { b_no: bno, name: name ?? '' } };
};
const noRegistry: Registry = { source: 'sandbox', lookup: () => Promise.reject(new Error('every number is cached')), close: async () => {} };
// the chunk with a named row fails on every attempt, as a chunk would on a fault of its own
const failingAssess = { checkAddresses: () => ({ here: Promise.resolve(new Map()) }), assessChunk: () => Promise.reject(new Error('the assessment failed')) } as unknown as AssessService;

describeEachStore('a chunk that keeps failing', (kind) => {
  const opened = useFreshStore(kind);

  test('is settled: its rows unknown, its lookups given back, the rest processed, the job failed with the reason', async () => {
    const { store } = opened;
    const entries: CachedStatus[] = Array.from({ length: 8 }, (_, i) => ({
      record: { b_no: valid(i + 1), b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '', utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99' },
      source: 'sandbox', checkedAt: NOW.toISOString(), expiresAt: new Date(NOW.getTime() + 3_600_000).toISOString(),
    }));
    await store.statusCache.putCachedStatuses(entries);
    const account: Account = { id: `acc_giveup_${kind}`, email: `giveup-${kind}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: NOW.toISOString() };
    await store.accounts.create(account);
    const id = `job_giveup_${kind}`;
    await store.batches.createJob({
      id, accountId: account.id, filename: 'list.csv', fileKind: 'csv', columns: ['b_no', 'name'], chosen: { bno: 'b_no', name: 'name', address: null },
      offline: false, paid: false, month: '2026-11', idempotencyKey: null, fingerprint: null, createdAt: NOW.toISOString(), uploadLeaseUntil: new Date(NOW.getTime() + 60_000).toISOString(),
    });
    const chunks = [
      [row(1, valid(1)), row(2, valid(2)), row(3, valid(3))],
      [row(4, valid(4), '한빛상사'), row(5, valid(5)), row(6, valid(6))],
      [row(7, valid(7)), row(8, valid(8)), row(9, 'abc')],
    ];
    for (const [i, rows] of chunks.entries()) await appendChunk(store.batches, id, i + 1, rows, ['b_no', 'name'], { bno: 'b_no', name: 'name', address: null });
    const fin = await store.batches.finalizeJob(id, { limit: 1000, charge: true, paid: false, now: NOW, total: 9, distinct: 8, sharedNumbers: [], sharedChunks: [] });
    assert.ok(fin.ok);
    assert.equal((await store.usage.get(account.id, '2026-11')).used, 8);

    // a clock that moves, so a lease of the failing chunk runs out and it is claimed again
    const started = Date.now();
    const now = () => new Date(NOW.getTime() + Date.now() - started);
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now });
    const worker = new BatchWorker({ store, status, assess: failingAssess, now, concurrency: 1, idleMs: 10, leaseMs: 50, maxAttempts: 2 });
    worker.start();
    try {
      for (let i = 0; i < 300; i++) {
        const s = (await store.batches.jobById(id))?.status;
        if (s === 'done' || s === 'failed') break;
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await worker.stop();
    }
    const job = (await store.batches.jobById(id))!;
    assert.equal(job.status, 'failed');
    assert.match(job.failureReason ?? '', /rows 4–6 .*the assessment failed/);
    assert.deepEqual([job.processed, job.chunksDone, job.refunded], [9, 3, 3]);
    assert.equal((await store.usage.get(account.id, '2026-11')).used, 5, 'the three numbers never answered are given back');
    const counts = await store.batches.counts(id);
    assert.deepEqual(counts.byStatus, { active: 5, unknown: 3, invalid: 1 });
    const rows = await rowsAfter(store.batches, { id, accountId: account.id, locale: 'ko' }, 0, 9);
    assert.deepEqual(rows.map((r) => r.result?.biz_status), ['active', 'active', 'active', 'unknown', 'unknown', 'unknown', 'active', 'active', 'invalid']);
  });
});
