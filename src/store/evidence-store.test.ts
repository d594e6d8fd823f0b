// Evidence kept once per id, on each store: a chunk's records written again (a list checked again)
// add nothing, and of a list partly kept only the rest is added, each record as it was first kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachStore, useFreshStore } from '../../test/helpers/stores.ts';
import { type Evidence, evidenceOf } from '../domain/evidence.ts';

const account = { id: 'acc_evidence', email: 'evidence@example.com', plan: 'business' as const, quotaLimit: null, batchRetentionDays: null, createdAt: '2026-11-01T00:00:00.000Z' };

/** Evidence of `n` numbers' answers checked at `checkedAt`. */
function answers(n: number, checkedAt: string, from = 0): Evidence[] {
  return Array.from({ length: n }, (_, i) => {
    const bno = String(1_000_000_000 + from + i);
    return evidenceOf({ accountId: account.id, bno, api: 'status', source: 'nts', checkedAt, record: { b_no: bno, b_stt: '계속사업자', b_stt_cd: '01' } });
  });
}

describeEachStore('evidence store', (kind) => {
  const db = useFreshStore(kind);

  test('a chunk\'s records written again add nothing; of a list partly kept, the rest is added', async () => {
    const { store } = db;
    await store.accounts.create(account);
    const first = answers(300, '2026-11-20T01:00:00.000Z');
    await store.evidence.record(first, new Date('2026-11-20T01:00:01Z'));
    // the same list again, later: each record stays as first kept (its created_at too)
    await store.evidence.record(first.toReversed(), new Date('2026-11-21T00:00:00Z'));
    for (const e of [first[0]!, first[299]!]) assert.equal((await store.evidence.get(account.id, e.id))?.createdAt, '2026-11-20T01:00:01.000Z');
    // half kept, half new, and a repeat within the call
    const mixed = [...first.slice(150), ...answers(200, '2026-11-20T01:00:00.000Z', 300)];
    await store.evidence.record([...mixed, mixed[0]!], new Date('2026-11-22T00:00:00Z'));
    assert.equal((await store.evidence.get(account.id, mixed[0]!.id))?.createdAt, '2026-11-20T01:00:01.000Z');
    const added = mixed.at(-1)!;
    const got = await store.evidence.get(account.id, added.id);
    assert.equal(got?.createdAt, '2026-11-22T00:00:00.000Z');
    assert.deepEqual(got?.record, added.record);
    // a few records (a single lookup's), one of them twice
    const few = answers(3, '2026-11-23T00:00:00.000Z', 900);
    await store.evidence.record([...few, ...few], new Date('2026-11-23T00:00:01Z'));
    for (const e of few) assert.equal((await store.evidence.get(account.id, e.id))?.bno, e.bno);
    // every record once: 300 + 200 + 3
    assert.equal(await store.evidence.forgetBefore(new Date('2100-01-01T00:00:00Z'), 10_000), 503);
  });
});
