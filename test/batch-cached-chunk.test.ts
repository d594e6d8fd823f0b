// A chunk answered from the status cache in SQL (src/batch/cached-chunk.ts) must read back exactly
// as the general way (process-chunk.ts) would have written it, on both stores; and every chunk
// the cache cannot answer on its own (a name, an expired, missing or foreign entry) must be left
// to the general way.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { cacheAnswersOf, completionFromCache } from '../src/batch/cached-chunk.ts';
import { BatchWorker } from '../src/jobs/batch-worker.ts';
import { processChunk } from '../src/batch/process-chunk.ts';
import { rowOf } from '../src/batch/job-rows.ts';
import { checkDigitOf, hasValidCheckDigit } from '../src/domain/bizno.ts';
import type { CachedStatus, NtsRecord, Registry } from '../src/domain/status.ts';
import { createStatusService } from '../src/registry/status-service.ts';
import type { BatchJob, BatchRowInput, ChunkCompletion, SharedNumber } from '../src/domain/batch.ts';
import { decodeOutput, encodeOutput } from '../src/batch/chunk-codec.ts';
import type { Store } from '../src/store/store.ts';
import type { Account } from '../src/domain/account.ts';
import type { AssessService } from '../src/verification/assess-service.ts';
import { describeEachStore, useFreshStore } from './helpers/stores.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { appendChunk, cachedGroups, chunksAfter, completeChunk } from '../src/batch/chunks.ts';

const NOW = new Date('2026-11-21T03:00:00.000Z');
const iso = (msFromNow: number) => new Date(NOW.getTime() + msFromNow).toISOString();
const valid = (i: number) => {
  const nine = String(300000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
function record(bno: string, kind: 'active' | 'suspended' | 'closed' | 'odd'): NtsRecord {
  const base = { b_no: bno, utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99' };
  if (kind === 'active') return { ...base, b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '' };
  if (kind === 'suspended') return { ...base, b_stt: '휴업자', b_stt_cd: '02', tax_type: '부가가치세 간이과세자', tax_type_cd: '02', end_dt: '' };
  if (kind === 'closed') return { ...base, b_stt: '폐업자', b_stt_cd: '03', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '20240131' };
  // text that needs escaping in JSON, and a field order of its own
  return { b_no: bno, tax_type: '국세청에 "등록되어 있지 않은"\n사업자등록번호입니다.\\', b_stt: '', b_stt_cd: '', tax_type_cd: '', end_dt: '', utcc_yn: '', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '', rbf_tax_type_cd: '' };
}
const row = (rowId: number, bno: string | null, name: string | null = null): BatchRowInput => {
  const ok = bno !== null && /^\d{10}$/.test(bno);
  return { rowId, bnoRaw: bno ?? '없음', bno: ok ? bno : null, valid: ok && hasValidCheckDigit(bno), name, address: null, cells: { b_no: bno ?? '없음', name: name ?? '' } };
};
const noRegistry: Registry = {
  source: 'sandbox',
  lookup: () => Promise.reject(new Error('the cached chunks must not reach the registry')),
  close: async () => {},
};
const noAssess = { checkAddresses: () => ({ here: Promise.resolve(new Map()) }), assessChunk: () => Promise.reject(new Error('no row here is scored')) } as unknown as AssessService;

/** A record whose text does not start with its number (our writer puts it first; another need not). */
const numberLast = ({ b_no, ...rest }: NtsRecord): NtsRecord => ({ ...rest, b_no });

/** cache entries: fresh ones of three statuses (one spelled with its number last) and an odd record, an expired one, one of the other registry */
const entries: CachedStatus[] = [
  { record: record(valid(1), 'active'), source: 'sandbox', checkedAt: iso(-60_000), expiresAt: iso(3_600_000) },
  { record: record(valid(2), 'suspended'), source: 'sandbox', checkedAt: iso(-60_000), expiresAt: iso(3_600_000) },
  { record: numberLast(record(valid(3), 'closed')), source: 'sandbox', checkedAt: iso(-120_000), expiresAt: iso(3_600_000) },
  { record: record(valid(4), 'odd'), source: 'sandbox', checkedAt: iso(-60_000), expiresAt: iso(3_600_000) },
  { record: record(valid(5), 'active'), source: 'sandbox', checkedAt: iso(-7_200_000), expiresAt: iso(-1) },
  { record: record(valid(6), 'active'), source: 'nts', checkedAt: iso(-60_000), expiresAt: iso(3_600_000) },
  // alike valid(1) but for its number and its check time: the same group, each with its own time
  { record: record(valid(8), 'active'), source: 'sandbox', checkedAt: iso(-90_000), expiresAt: iso(1_800_000) },
];

describeEachStore('chunks answered from the cache in SQL', (kind) => {
  const opened = useFreshStore(kind);
  let store: Store;
  before(() => {
    store = opened.store;
  });

  // chunk 1: answered (three statuses, one of them checked at two times, an odd record, a repeat,
  // an invalid number); 2: an expired
  // entry; 3: an entry of the other registry; 4: a named row; 5: a number not in the cache; 6:
  // nothing but invalid numbers
  const chunks: BatchRowInput[][] = [
    [row(1, valid(1)), row(2, valid(2)), row(3, valid(3)), row(4, valid(1)), row(5, '1234567890'), row(6, valid(4)), row(7, null), row(8, valid(8))],
    [row(9, valid(1)), row(10, valid(5))],
    [row(11, valid(6))],
    [row(12, valid(2), '주식회사 한빛')],
    [row(13, valid(2)), row(14, valid(7))],
    [row(15, 'abc'), row(16, '1234567890')],
  ];

  async function newJob(id: string): Promise<{ job: BatchJob; account: Account }> {
    const account: Account = { id: `acc_${id}`, email: `${id}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: NOW.toISOString() };
    await store.accounts.create(account);
    await store.batches.createJob({
      id, accountId: account.id, filename: 'list.csv', fileKind: 'csv', columns: ['b_no', 'name'], chosen: { bno: 'b_no', name: 'name', address: null },
      offline: false, paid: false, month: '2026-11', idempotencyKey: null, fingerprint: null, createdAt: NOW.toISOString(),
      uploadLeaseUntil: new Date(NOW.getTime() + 60_000).toISOString(),
    });
    for (const [i, rows] of chunks.entries()) await appendChunk(store.batches, id, i + 1, rows, ['b_no', 'name'], { bno: 'b_no', name: 'name', address: null });
    const fin = await store.batches.finalizeJob(id, { limit: 1000, charge: false, paid: false, now: NOW, total: 16, distinct: 8, sharedNumbers: [], sharedChunks: [] });
    assert.ok(fin.ok);
    return { job: fin.job, account };
  }

  const ctx = (no: number) => ({ source: 'sandbox', nowMs: NOW.getTime(), chunkRows: chunks[no - 1]!.length });

  test('a chunk the cache answers reads back, row by row, as the general way writes it', async () => {
    await store.statusCache.putCachedStatuses(entries);
    const { job, account } = await newJob('job_cached_1');
    const groups = await cachedGroups(store.batches, job.id, 1);
    assert.ok(groups);
    const sql = completionFromCache(groups, ctx(1));
    assert.ok(sql, JSON.stringify(groups));
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now: () => NOW });
    const general = await processChunk({ status, assess: noAssess, now: () => NOW }, { job, account, rows: chunks[0]!, shared: new Map() });
    assert.ok(!('wait' in general));

    assert.deepEqual(sql.counts, general.counts);
    assert.deepEqual(sql.counts, { byStatus: { active: 3, suspended: 1, closed: 1, unregistered: 1, invalid: 2 }, byGrade: {} });
    assert.equal(groups.filter((g) => g.template !== null).length, 4, 'alike records checked at different times share a group');
    assert.equal(sql.rows, general.rows);
    assert.deepEqual(sql.numbers, [], 'nothing to refund or record per number');
    assert.ok(general.numbers.every((n) => !n.refund));
    const fromSql = decodeOutput(encodeOutput(sql.output));
    const fromGeneral = decodeOutput(encodeOutput(general.output));
    assert.deepEqual(fromSql.answers, fromGeneral.answers);
    assert.equal(fromSql.answers.get(valid(4))?.record.tax_type, record(valid(4), 'odd').tax_type, 'escaped text survives');
    assert.deepEqual([fromSql.answers.get(valid(1))?.checkedAt, fromSql.answers.get(valid(8))?.checkedAt], [iso(-60_000), iso(-90_000)], 'each number keeps its check time');

    // committed, the rows read back as the general way's output would give them
    const lease = await store.batches.claimChunk('w', 60_000, NOW);
    assert.deepEqual([lease?.jobId, lease?.chunkNo], [job.id, 1]);
    assert.deepEqual(await completeChunk(store.batches, lease!, 'w', sql, NOW), { status: 'done' });
    const [stored] = await chunksAfter(store.batches, job.id, 0, 1);
    assert.ok(stored?.output);
    const expected = { ...stored, output: fromGeneral };
    assert.deepEqual(stored.rows.map((r) => rowOf(stored, r, job)), stored.rows.map((r) => rowOf(expected, r, job)));
    assert.deepEqual(await store.batches.counts(job.id), general.counts);
  });

  test('chunks the cache cannot answer on its own are left to the general way', async () => {
    const { job } = await newJob('job_cached_2');
    const answered = async (no: number): Promise<ChunkCompletion | null> => {
      const groups = await cachedGroups(store.batches, job.id, no);
      return groups && completionFromCache(groups, ctx(no));
    };
    assert.equal(await answered(2), null, 'an expired entry');
    assert.equal(await answered(3), null, "the other registry's entry");
    assert.equal(await cachedGroups(store.batches, job.id, 4), null, 'a named row needs scoring');
    assert.equal(await answered(5), null, 'a number not in the cache');
    const invalidOnly = await answered(6);
    assert.deepEqual(invalidOnly?.counts, { byStatus: { invalid: 2 }, byGrade: {} }, 'nothing to look up: answered');
    // the same chunk half an hour later: one of its entries (valid(8)) has expired
    const groups = await cachedGroups(store.batches, job.id, 1);
    assert.ok(completionFromCache(groups!, { ...ctx(1), nowMs: NOW.getTime() + 1_799_000 }));
    assert.equal(completionFromCache(groups!, { ...ctx(1), nowMs: NOW.getTime() + 1_800_000 }), null);
  });
});

describeEachStore('chunks with shared numbers answered from the cache', (kind) => {
  const opened = useFreshStore(kind);
  const chosen = { bno: 'b_no', name: 'name', address: null };

  // two chunks sharing valid(1) and valid(2); valid(3) is the first chunk's alone
  async function sharedJob(id: string, cachedFrom?: string, [a, b]: readonly [string, string] = [valid(1), valid(2)]): Promise<{ job: BatchJob; account: Account }> {
    const store = opened.store;
    const account: Account = { id: `acc_${id}`, email: `${id}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: NOW.toISOString() };
    await store.accounts.create(account);
    await store.batches.createJob({
      id, accountId: account.id, filename: 'list.csv', fileKind: 'csv', columns: ['b_no', 'name'], chosen, offline: false, paid: false, month: '2026-11',
      idempotencyKey: null, fingerprint: null, createdAt: NOW.toISOString(), uploadLeaseUntil: new Date(NOW.getTime() + 60_000).toISOString(),
    });
    await appendChunk(store.batches, id, 1, [row(1, a), row(2, b), row(3, valid(3))], ['b_no', 'name'], chosen);
    await appendChunk(store.batches, id, 2, [row(4, b), row(5, a)], ['b_no', 'name'], chosen);
    const fin = await store.batches.finalizeJob(id, { limit: 1000, charge: false, paid: false, now: NOW, total: 5, distinct: 3, sharedNumbers: [a, b], sharedChunks: [1, 2], ...(cachedFrom ? { cachedFrom } : {}) });
    assert.ok(fin.ok);
    return { job: fin.job, account };
  }

  test('the first chunk records its shared numbers as a cache hit answers them; the next agrees and adds nothing', async () => {
    const store = opened.store;
    await store.statusCache.putCachedStatuses(entries);
    const { job } = await sharedJob('job_shared_1');
    const lease1 = await store.batches.claimChunk('w', 60_000, NOW);
    assert.deepEqual(await completeChunk(store.batches, lease1!, 'w', await fromCache(job.id, 1, 3), NOW), { status: 'done' });

    // recorded as the general way would take them from the cache
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now: () => NOW });
    const hits = (await status.lookup([valid(1), valid(2)])).answers;
    assert.deepEqual(await store.batches.sharedNumbers(job.id, [valid(1), valid(2), valid(3)]), new Map([
      [valid(1), { answered: true, answer: hits.get(valid(1)) }],
      [valid(2), { answered: true, answer: hits.get(valid(2)) }],
    ]));

    const lease2 = await store.batches.claimChunk('w', 60_000, NOW);
    assert.deepEqual(await completeChunk(store.batches, lease2!, 'w', await fromCache(job.id, 2, 2), NOW), { status: 'done' });
    const after2 = await store.batches.jobById(job.id);
    assert.deepEqual([after2?.status, after2?.processed, after2?.refunded], ['done', 5, 0]);
    assert.deepEqual(await store.batches.counts(job.id), { byStatus: { active: 2, closed: 1, suspended: 2 }, byGrade: {} });
  });

  test('an entry refreshed after the first chunk recorded it is a conflict: nothing is written and the general way takes the recorded answer', async () => {
    const store = opened.store;
    await store.statusCache.putCachedStatuses(entries);
    const { job, account } = await sharedJob('job_shared_2');
    const lease1 = await store.batches.claimChunk('w', 60_000, NOW);
    assert.deepEqual(await completeChunk(store.batches, lease1!, 'w', await fromCache(job.id, 1, 3), NOW), { status: 'done' });
    const recorded = await store.batches.sharedNumbers(job.id, [valid(2)]);

    // valid(2) closed meanwhile, and a lookup refreshed its entry
    await store.statusCache.putCachedStatuses([{ record: record(valid(2), 'closed'), source: 'sandbox', checkedAt: iso(-1_000), expiresAt: iso(3_600_000) }]);
    const lease2 = await store.batches.claimChunk('w', 60_000, NOW);
    const out = await completeChunk(store.batches, lease2!, 'w', await fromCache(job.id, 2, 2), NOW);
    assert.equal(out.status, 'conflict');
    const held = await store.batches.jobById(job.id);
    assert.deepEqual([held?.status, held?.processed], ['processing', 3], 'the chunk is not committed');
    assert.deepEqual(await store.batches.sharedNumbers(job.id, [valid(2)]), recorded, 'the recorded answer stands');

    // the general way gives both rows of valid(2) the one recorded answer
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now: () => NOW });
    const shared = await store.batches.sharedNumbers(job.id, [valid(2), valid(1)]);
    const general = await processChunk({ status, assess: noAssess, now: () => NOW }, { job, account, rows: [row(4, valid(2)), row(5, valid(1))], shared });
    assert.ok(!('wait' in general));
    assert.deepEqual(general.counts, { byStatus: { suspended: 1, active: 1 }, byGrade: {} });
    assert.deepEqual(await completeChunk(store.batches, lease2!, 'w', general, NOW), { status: 'done' });
  });

  test('a shared number another chunk looked up afresh is a conflict too', async () => {
    const store = opened.store;
    await store.statusCache.putCachedStatuses(entries);
    const { job, account } = await sharedJob('job_shared_3');
    // chunk 2 first, the general way, with valid(1) answered by NTS itself (not from the cache)
    const fresh = { record: record(valid(1), 'active'), source: 'sandbox' as const, checkedAt: iso(-60_000), fromCache: false, stale: false };
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now: () => NOW });
    const lease1 = await store.batches.claimChunk('w', 60_000, NOW);
    const lease2 = await store.batches.claimChunk('w', 60_000, NOW);
    assert.equal(lease2?.chunkNo, 2);
    const general = await processChunk({ status, assess: noAssess, now: () => NOW }, { job, account, rows: [row(4, valid(2)), row(5, valid(1))], shared: new Map<string, SharedNumber>([[valid(1), { answered: true, answer: fresh }], [valid(2), { answered: false }]]) });
    assert.ok(!('wait' in general));
    assert.deepEqual(await completeChunk(store.batches, lease2, 'w', { ...general, numbers: [...general.numbers, { bno: valid(1), answer: fresh, refund: false, shared: true }] }, NOW), { status: 'done' });
    assert.equal((await completeChunk(store.batches, lease1!, 'w', await fromCache(job.id, 1, 3), NOW)).status, 'conflict');
  });

  test('accepted with the registry named, a job records at once the answers of its shared numbers that have a fresh entry, as a cache hit gives them', async () => {
    const store = opened.store;
    await store.statusCache.putCachedStatuses(entries);
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now: () => NOW });
    const hits = (await status.lookup([valid(1), valid(2)])).answers;
    const { job } = await sharedJob('job_pinned', 'sandbox');
    assert.deepEqual(await store.batches.sharedNumbers(job.id, [valid(1), valid(2), valid(3)]), new Map([
      [valid(1), { answered: true, answer: hits.get(valid(1)) }],
      [valid(2), { answered: true, answer: hits.get(valid(2)) }],
    ]));
    // both chunks then complete from the cache, writing no answer
    for (const [no, rows] of [[1, 3], [2, 2]] as const) {
      const lease = await store.batches.claimChunk('w', 60_000, NOW);
      assert.equal(lease?.chunkNo, no);
      assert.deepEqual(await completeChunk(store.batches, lease, 'w', await fromCache(job.id, no, rows), NOW), { status: 'done' });
    }
    assert.equal((await store.batches.jobById(job.id))?.status, 'done');

    // an expired entry, another registry's, none: left for the first chunk to answer
    for (const [n, pair] of [[1, [valid(5), valid(6)]], [2, [valid(7), valid(5)]]] as const) {
      const { job: other } = await sharedJob(`job_not_pinned_${n}`, 'sandbox', pair);
      assert.deepEqual(await store.batches.sharedNumbers(other.id, pair), new Map(pair.map((bno) => [bno, { answered: false }])));
    }

    // a record spelled otherwise (its number last) and one with text to escape: recorded as a cache hit gives them too
    const spelled = [valid(3), valid(4)] as const;
    const spelledHits = (await status.lookup(spelled)).answers;
    const { job: third } = await sharedJob('job_pinned_spelled', 'sandbox', spelled);
    assert.deepEqual(await store.batches.sharedNumbers(third.id, spelled), new Map(spelled.map((bno) => [bno, { answered: true, answer: spelledHits.get(bno) }])));
  });

  /** the chunk's completion from the cache with its shared numbers' entries, as the worker commits it */
  async function fromCache(jobId: string, chunkNo: number, rows: number): Promise<ChunkCompletion> {
    const groups = await cachedGroups(opened.store.batches, jobId, chunkNo);
    assert.ok(groups);
    const done = completionFromCache(groups, { source: 'sandbox', nowMs: NOW.getTime(), chunkRows: rows });
    assert.ok(done);
    const answers = cacheAnswersOf(groups, NOW.toISOString());
    assert.ok(answers);
    return { ...done, cacheAnswers: answers };
  }
});

describeEachStore('a job whose shared numbers were recorded from the cache at acceptance', (kind) => {
  const opened = useFreshStore(kind);
  const chosen = { bno: 'b_no', name: 'name', address: null };

  test('chunks read from the entries a job recorded its shared numbers from are not checked; one with an entry written since is, and the recorded answer stands', async () => {
    const store = opened.store;
    const [a, b, c] = [valid(21), valid(22), valid(23)];
    await store.statusCache.putCachedStatuses([
      { record: record(a, 'active'), source: 'sandbox', checkedAt: iso(-60_000), expiresAt: iso(3_600_000) },
      { record: record(b, 'active'), source: 'sandbox', checkedAt: iso(-60_000), expiresAt: iso(3_600_000) },
      { record: record(c, 'suspended'), source: 'sandbox', checkedAt: iso(-60_000), expiresAt: iso(3_600_000) },
    ]);
    const account: Account = { id: 'acc_pins', email: 'pins@example.com', plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: NOW.toISOString() };
    await store.accounts.create(account);
    const id = 'job_pins';
    await store.batches.createJob({
      id, accountId: account.id, filename: 'list.csv', fileKind: 'csv', columns: ['b_no', 'name'], chosen, offline: false, paid: false, month: '2026-11',
      idempotencyKey: null, fingerprint: null, createdAt: NOW.toISOString(), uploadLeaseUntil: new Date(NOW.getTime() + 60_000).toISOString(),
    });
    for (const [i, pair] of [[a, b], [b, a], [c, a], [c, b]].entries()) await appendChunk(store.batches, id, i + 1, [row(i * 2 + 1, pair[0]!), row(i * 2 + 2, pair[1]!)], ['b_no', 'name'], chosen);
    const fin = await store.batches.finalizeJob(id, { limit: 1000, charge: false, paid: false, now: NOW, total: 8, distinct: 3, sharedNumbers: [a, b, c], sharedChunks: [1, 2, 3, 4], cachedFrom: 'sandbox' });
    assert.ok(fin.ok);
    if (store.batches.sharedFromCache) {
      assert.equal(fin.job.cachePins?.source, 'sandbox');
      assert.equal(fin.job.cachePins?.at, NOW.toISOString());
    } else {
      // its cache writes are not counted: no chunk reads its entries as pinned, and chunks holding shared numbers go the general way
      assert.equal(fin.job.cachePins, null);
    }

    // c closed, and an answer NTS gave before the job began reaches the cache only now (a lookup in flight elsewhere)
    await store.statusCache.putCachedStatuses([{ record: record(c, 'closed'), source: 'sandbox', checkedAt: iso(-30_000), expiresAt: iso(3_600_000) }]);

    const commits: [string, boolean][] = [];
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now: () => NOW });
    const onCommit = (out: { status: string }, done: ChunkCompletion) => commits.push([out.status, done.cacheAnswers !== undefined]);
    const worker = new BatchWorker({ store, status, assess: noAssess, now: () => NOW, concurrency: 1, idleMs: 10, onCommit });
    worker.start();
    try {
      for (let i = 0; i < 200 && (await store.batches.jobById(id))?.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await worker.stop();
    }
    if (store.batches.sharedFromCache) {
      assert.deepEqual(commits, [
        ['done', false],
        ['done', false],
        ['conflict', true],
        ['done', false],
        ['conflict', true],
        ['done', false],
      ], 'chunks 1 and 2 committed unchecked; 3 and 4 were checked, conflicted and went the general way');
    } else {
      assert.deepEqual(commits, [['done', false], ['done', false], ['done', false], ['done', false]], 'every chunk the general way, none rejected');
    }
    assert.deepEqual((await store.batches.jobById(id))?.processed, 8);
    assert.deepEqual(await store.batches.counts(id), { byStatus: { active: 6, suspended: 2 }, byGrade: {} }, 'both rows of c read the answer recorded at acceptance');
  });
});

describeEachStore('the batch worker and the cache path', (kind) => {
  const opened = useFreshStore(kind);

  test('chunks the cache answers are completed without a status lookup; the others are looked up as before', async () => {
    const store = opened.store;
    await store.statusCache.putCachedStatuses(entries);
    const account: Account = { id: 'acc_worker', email: 'worker@example.com', plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: NOW.toISOString() };
    await store.accounts.create(account);
    const id = 'job_worker';
    await store.batches.createJob({
      id, accountId: account.id, filename: 'list.csv', fileKind: 'csv', columns: ['b_no', 'name'], chosen: { bno: 'b_no', name: 'name', address: null },
      offline: false, paid: false, month: '2026-11', idempotencyKey: null, fingerprint: null, createdAt: NOW.toISOString(),
      uploadLeaseUntil: new Date(NOW.getTime() + 60_000).toISOString(),
    });
    // chunks of two: fresh entries; a fresh entry and an invalid number; an expired entry and a fresh one
    const rows = [row(1, valid(1)), row(2, valid(2)), row(3, valid(3)), row(4, 'abc'), row(5, valid(5)), row(6, valid(4))];
    for (let c = 0; c < 3; c++) await appendChunk(store.batches, id, c + 1, rows.slice(c * 2, c * 2 + 2), ['b_no', 'name'], { bno: 'b_no', name: 'name', address: null });
    assert.ok((await store.batches.finalizeJob(id, { limit: 1000, charge: false, paid: false, now: NOW, total: 6, distinct: 5, sharedNumbers: [], sharedChunks: [] })).ok);

    const asked: string[] = [];
    const status = createStatusService({ registry: noRegistry, cache: store.statusCache, ttlSeconds: 3600, now: () => NOW });
    const counting = { ...status, lookup: (bnos: readonly string[], opts?: { offline?: boolean }) => (asked.push(...bnos), status.lookup(bnos, opts)) };
    const worker = new BatchWorker({ store, status: counting, assess: noAssess, now: () => NOW, concurrency: 1, idleMs: 10 });
    worker.start();
    try {
      for (let i = 0; i < 200 && (await store.batches.jobById(id))?.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await worker.stop();
    }
    const job = await store.batches.jobById(id);
    assert.deepEqual([job?.status, job?.processed], ['done', 6]);
    assert.deepEqual(asked.toSorted(), [valid(5), valid(4)].toSorted(), 'only the chunk with an expired entry went the general way');
  });
});

describeEachStore('a chunk redone because another recorded a shared number first', (kind) => {
  const opened = useFreshStore(kind);

  test('takes the recorded answer and asks nothing again for the rest of its numbers', async () => {
    const store = opened.store;
    const account: Account = { id: 'acc_redo', email: 'redo@example.com', plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: NOW.toISOString() };
    await store.accounts.create(account);
    const id = 'job_redo';
    await store.batches.createJob({
      id, accountId: account.id, filename: 'list.csv', fileKind: 'csv', columns: ['b_no', 'name'], chosen: { bno: 'b_no', name: 'name', address: null },
      offline: false, paid: false, month: '2026-11', idempotencyKey: null, fingerprint: null, createdAt: NOW.toISOString(),
      uploadLeaseUntil: new Date(NOW.getTime() + 60_000).toISOString(),
    });
    const shared = valid(20);
    await appendChunk(store.batches, id, 1, [row(1, shared), row(2, valid(21))], ['b_no', 'name'], { bno: 'b_no', name: 'name', address: null });
    await appendChunk(store.batches, id, 2, [row(3, shared), row(4, valid(22))], ['b_no', 'name'], { bno: 'b_no', name: 'name', address: null });
    assert.ok((await store.batches.finalizeJob(id, { limit: 1000, charge: false, paid: false, now: NOW, total: 4, distinct: 3, sharedNumbers: [shared], sharedChunks: [1, 2] })).ok);

    // both chunks look up at once and each gets its own check of the shared number, so the
    // chunk that commits second finds another answer recorded and is redone with it
    const asked: string[][] = [];
    let bothAsked!: () => void;
    const gate = new Promise<void>((r) => { bothAsked = r; });
    const status = {
      source: 'sandbox' as const,
      health: () => ({ upstream: 'sandbox' as const }),
      close: async () => {},
      lookup: async (bnos: readonly string[]) => {
        const n = asked.push([...bnos]);
        if (n === 2) bothAsked();
        await Promise.race([gate, new Promise((r) => setTimeout(r, 5_000))]);
        const answers = new Map(bnos.map((b) => [b, { record: record(b, 'active'), source: 'sandbox' as const, checkedAt: iso(n * 1000), fromCache: false, stale: false }]));
        return { answers, unanswered: new Map() };
      },
    };
    const commits: string[] = [];
    const worker = new BatchWorker({ store, status, assess: noAssess, now: () => NOW, concurrency: 2, idleMs: 10, onCommit: (out) => commits.push(out.status) });
    worker.start();
    try {
      for (let i = 0; i < 1000 && (await store.batches.jobById(id))?.status !== 'done'; i++) await new Promise((r) => setTimeout(r, 10));
    } finally {
      await worker.stop();
    }
    assert.deepEqual((await store.batches.jobById(id))?.status, 'done');
    assert.deepEqual(commits.toSorted(), ['conflict', 'done', 'done'], 'one chunk was redone');
    assert.equal(asked.length, 2, `each chunk asked once: ${JSON.stringify(asked)}`);
    assert.deepEqual(asked.flat().toSorted(), [shared, shared, valid(21), valid(22)].toSorted());
  });
});

describeEachStore('a list uploaded again is answered from the cache, as it was the first time', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  before(async () => {
    nts = await startFakeNts({ latencyMs: 5, seed: 11 });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, BATCH_CHUNK_ROWS: '10' });
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  test('the second job asks NTS nothing, counts the same and gives every row the same result, now marked cached', async () => {
    const { apiKey } = await srv.account('business');
    // 45 rows in chunks of 10: 40 numbers (the fake gives them assorted statuses), a repeat within a chunk, invalid ones
    const lines = [...Array.from({ length: 40 }, (_, i) => valid(500 + i)), valid(503), '123-45-67890', '없음', '0000000000', '12345'];
    const body = `사업자등록번호\n${lines.join('\n')}\n`;
    const uploadedFrom = Date.now();
    const first = await upload(srv.url, apiKey, { name: 'list.csv', body });
    assert.equal(first.status, 202, JSON.stringify(first.body));
    const one = await waitForJob(srv.url, apiKey, first.body.job_id);
    assert.equal(one.body.status, 'done', JSON.stringify(one.body));
    const asked = nts.received.length;

    const second = await upload(srv.url, apiKey, { name: 'list.csv', body });
    assert.equal(second.status, 202, JSON.stringify(second.body));
    const two = await waitForJob(srv.url, apiKey, second.body.job_id);
    assert.equal(two.body.status, 'done', JSON.stringify(two.body));
    assert.equal(nts.received.length, asked, 'nothing asked upstream');
    assert.deepEqual(two.body.counts, one.body.counts);
    assert.ok(Object.keys(one.body.counts.biz_status as object).length >= 3, JSON.stringify(one.body.counts));
    assert.equal(two.body.refunded, 0);

    const results = async (jobId: string) => (await call(srv.url, 'GET', `/batch/${jobId}/results?format=json`, { key: apiKey })).body as Record<string, unknown>[];
    const [firstRows, again] = [await results(first.body.job_id), await results(second.body.job_id)];
    assert.equal(again.length, 45);
    assert.deepEqual(again, firstRows);
    // the preview shows whole results, with whether the answer came from the cache
    const preview = async (jobId: string) => ((await call(srv.url, 'GET', `/batch/${jobId}?preview=45`, { key: apiKey })).body.preview as { result: Record<string, unknown> }[]).map((p) => p.result);
    const [shownBefore, shownAgain] = [await preview(first.body.job_id), await preview(second.body.job_id)];
    assert.deepEqual(shownAgain.map((r) => ({ ...r, cached: null })), shownBefore.map((r) => ({ ...r, cached: null })));
    // nothing was cached before the first upload: a cached answer in its job is one asked for it
    // meanwhile, by the upload's warm lookups (upload-warmer.ts) or, for the repeated number, by
    // the other chunk that has it
    const askedForIt = (r: Record<string, unknown>) => r.cached === false || Date.parse(String(r.checked_at)) >= uploadedFrom;
    assert.ok(shownBefore.every(askedForIt), JSON.stringify(shownBefore.filter((r) => !askedForIt(r))));
    assert.ok(shownAgain.every((r) => r.cached === (typeof r.checked_at === 'string')), JSON.stringify(shownAgain.slice(38, 42)));
  });
});
