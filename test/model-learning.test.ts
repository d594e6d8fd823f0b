// The learning loop on both stores: when a refit happens, what it learns from, and what one
// account's labels can do to another's scores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ModelRefitter } from '../src/jobs/model-refit.ts';
import { ModelProvider } from '../src/model/model-provider.ts';
import { PRIOR_MODEL } from '../src/domain/model/prior.ts';
import type { LabelRecord } from '../src/domain/label.ts';
import type { Store } from '../src/store/store.ts';
import { describeEachStore, useFreshStore } from './helpers/stores.ts';

async function newAccount(store: Store): Promise<string> {
  const id = `acct_${randomUUID().slice(0, 8)}`;
  await store.accounts.create({ id, email: `${id}@example.com`, plan: 'business', quotaLimit: null, createdAt: new Date().toISOString() });
  return id;
}

async function putLabels(store: Store, accountId: string, n: number, make: (i: number) => Partial<LabelRecord>): Promise<void> {
  for (let i = 1; i <= n; i++) {
    await store.labels.put({
      accountId, jobId: 'job_l', rowId: i, bno: `${1_000_000_000 + i}`, addressKey: `bld_${accountId}_${i}`, bounced: false, reason: null,
      features: {}, modelVersion: PRIOR_MODEL.version, at: new Date().toISOString(), ...make(i),
    });
  }
}

describeEachStore('the model refit', (kind) => {
  const held = useFreshStore(kind);
  const refitter = (minNewLabels: number) => {
    const provider = new ModelProvider(held.store);
    return new ModelRefitter({ store: held.store, provider, minNewLabels, inline: true });
  };

  test('the first refit waits for MODEL_REFIT_MIN_LABELS like every other: a few labels leave the prior in place', async () => {
    const a = await newAccount(held.store);
    await putLabels(held.store, a, 5, () => ({ bounced: true, features: { missing_unit: 1 } }));
    const outcome = await refitter(200).runOnce();
    assert.equal(outcome.fitted, false);
    assert.match((outcome as { why: string }).why, /^5 new labels/);
    assert.equal(await held.store.models.latest(), null, 'no model saved: everyone keeps the prior');
  });

  test('once enough labels arrived it fits, on every label of a scored row, the reference case included', async () => {
    const a = await newAccount(held.store);
    // rows scored as the reference case carry no features at all
    await putLabels(held.store, a, 250, (i) => ({ bounced: i % 4 === 0, features: i % 2 === 0 ? {} : { missing_unit: 1 } as Record<string, number> }));
    const outcome = await refitter(200).runOnce();
    assert.equal(outcome.fitted, true);
    assert.equal((outcome as { labels: number }).labels, 255);
  });
});
