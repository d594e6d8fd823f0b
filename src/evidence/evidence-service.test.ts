import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EvidenceService } from './evidence-service.ts';
import { type EvidenceInput, evidenceOf } from '../domain/evidence.ts';
import type { EvidenceStore } from '../store/evidence-store.ts';
import type { Signer } from './signer.ts';

/** An EvidenceService over a store that keeps what it is asked to write. */
function service() {
  const written: string[] = [];
  const store = { record: async (es: readonly { id: string }[]) => void written.push(...es.map((e) => e.id)) } as unknown as EvidenceStore;
  return { evidence: new EvidenceService(store, {} as Signer), written };
}

const record = { b_no: '1248100998', b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', end_dt: '' };
const served = (over: Partial<EvidenceInput> = {}): EvidenceInput => ({ accountId: 'acc_a', bno: '1248100998', api: 'status', source: 'nts', checkedAt: '2026-11-27T01:02:03.000Z', record, ...over });

test('one record object served again and again gets the evidence derived afresh, for each account and check', async () => {
  const { evidence, written } = service();
  const inputs = [served(), served({ accountId: 'acc_b' }), served({ checkedAt: '2026-11-27T05:00:00.000Z' }), served({ source: 'sandbox' }), served({ api: 'validate' })];
  for (let round = 0; round < 3; round++) {
    for (const input of inputs) {
      const [got] = await evidence.record([input]);
      const fresh = evidenceOf(input);
      assert.equal(got!.id, fresh.id);
      assert.equal(got!.recordSha256, fresh.recordSha256);
    }
  }
  assert.equal(new Set(inputs.map((i) => evidenceOf(i).id)).size, inputs.length);
  // each written once: the same answer served again within the hour is not written again
  assert.deepEqual(written.toSorted(), inputs.map((i) => evidenceOf(i).id).toSorted());
});

test('an equal record in another object, and more accounts than a record keeps, still derive the same ids', async () => {
  const { evidence } = service();
  const copy = { ...record };
  assert.equal((await evidence.record([served({ record: copy })]))[0]!.id, evidenceOf(served()).id);
  for (let i = 0; i < 200; i++) {
    const input = served({ accountId: `acc_${i % 70}` });
    assert.equal((await evidence.record([input]))[0]!.id, evidenceOf(input).id);
  }
});
