// The learning loop on both stores: when a refit happens, what it learns from, and what one
// account's labels can do to another's scores.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ModelRefitter } from '../src/jobs/model-refit.ts';
import { ModelProvider } from '../src/model/model-provider.ts';
import { PRIOR_MODEL } from '../src/domain/model/prior.ts';
import { accountShift, modelScoreOf, score, sigmoid } from '../src/domain/model/score.ts';
import { pairName, withPairs } from '../src/domain/model/pairs.ts';
import { runFit } from '../src/jobs/refit-worker.ts';
import type { LabelRecord } from '../src/domain/label.ts';
import type { Store } from '../src/store/store.ts';
import { describeEachStore, useFreshStore } from './helpers/stores.ts';

// as assess() scores: the model's pairs of the row's features are terms too
const prob = (m: typeof PRIOR_MODEL, f: Record<string, number>) => sigmoid(score(m, withPairs(m.pairs, new Map(Object.entries(f)))).logit);

async function newAccount(store: Store): Promise<string> {
  const id = `acct_${randomUUID().slice(0, 8)}`;
  await store.accounts.create({ id, email: `${id}@example.com`, plan: 'business', quotaLimit: null, batchRetentionDays: null, createdAt: new Date().toISOString() });
  return id;
}

async function putLabels(store: Store, accountId: string, n: number, make: (i: number) => Partial<LabelRecord>): Promise<void> {
  for (let i = 1; i <= n; i++) {
    await store.labels.put({
      accountId, jobId: 'job_l', rowId: i, bno: `${1_000_000_000 + i}`, addressKey: `bld_${accountId}_${i}`, bounced: false, reason: null, cause: null,
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
    const none: Record<string, number> = {};
    await putLabels(held.store, a, 250, (i) => ({ bounced: i % 4 === 0, features: i % 2 === 0 ? none : { missing_unit: 1 } }));
    const outcome = await refitter(200).runOnce();
    assert.equal(outcome.fitted, true);
    assert.equal((outcome as { labels: number }).labels, 255);
  });

  test('an account posting 3,000 adversarial labels moves no other account\'s probability by more than 0.02', async () => {
    const shapes: Record<string, number>[] = [{}, { entity_individual: 1 }, { missing_unit: 1 }, { status_closed: 1, closed_old: 1 }, { address_not_found: 1 }, { status_closed: 1, address_not_found: 1 }];
    for (const [k, seed] of [[0, 1], [1, 2], [2, 3]] as const) {
      const honest = await newAccount(held.store);
      // bounces where the prior expects them, roughly: closed and unfound addresses, a few others
      await putLabels(held.store, honest, 300, (i) => {
        const features = shapes[(i * 7 + seed) % shapes.length]!;
        return { features, bounced: prob(PRIOR_MODEL, features) > (((i * 37 + k) % 100) + 0.5) / 100 };
      });
    }
    const attacker = await newAccount(held.store);
    await putLabels(held.store, attacker, 3000, (i) => {
      const features = shapes[i % shapes.length]!;
      return { features, bounced: prob(PRIOR_MODEL, features) < 0.2 };
    });
    const outcome = await refitter(200).runOnce(true);
    assert.equal(outcome.fitted, true);
    const fitted = (await held.store.models.latest())!;
    // the prior's pairs (causes that combine as either one) stay terms of every refit
    const kept = new Set(fitted.pairs?.map(([x, y]) => pairName(x, y)));
    for (const [a, b] of PRIOR_MODEL.pairs!) assert.ok(kept.has(pairName(a, b)), `${a} × ${b}`);
    const honestOnly = (await held.store.labels.forFit(200_000)).filter((l) => l.accountId !== attacker);
    const without = runFit({ base: PRIOR_MODEL, examples: honestOnly, now: new Date().toISOString() }).model;
    const rows = [...shapes, ...Object.keys(PRIOR_MODEL.weights).map((w) => ({ [w]: 1 }))];
    const moved = Math.max(...rows.map((f) => Math.abs(prob(fitted, f) - prob(without, f))));
    assert.ok(moved <= 0.02, `the attacker moved a probability by ${moved.toFixed(4)}`);
    // its own offset is its own: the attacker's clean rows are shifted for it alone
    assert.ok((await held.store.models.offset(attacker))!.offset > 0.5);
  });
  test('an account whose closed customers still take the mail learns it for itself: its weight on a closure, not only its baseline', async () => {
    const others: string[] = [];
    for (let k = 0; k < 3; k++) {
      const other = await newAccount(held.store);
      others.push(other);
      await putLabels(held.store, other, 300, (i) => {
        const features: Record<string, number> = i % 3 === 0 ? { status_closed: 1 } : { entity_individual: 1 };
        return { features, bounced: prob(PRIOR_MODEL, features) > (((i * 37 + k) % 100) + 0.5) / 100 };
      });
    }
    const wholesaler = await newAccount(held.store);
    // a closure bounces 1 in 10 of its letters (the shared model says more than half); the rest as the prior says
    await putLabels(held.store, wholesaler, 2000, (i) => {
      const features: Record<string, number> = i % 4 === 0 ? { status_closed: 1, entity_individual: 1 } : { entity_individual: 1 };
      return { features, bounced: i % 4 === 0 ? i % 40 === 0 : ((i * 37) % 100) + 0.5 < prob(PRIOR_MODEL, features) * 100 };
    });
    const provider = new ModelProvider(held.store);
    assert.equal((await new ModelRefitter({ store: held.store, provider, minNewLabels: 1, inline: true }).runOnce(true)).fitted, true);
    const model = await provider.current();
    const closed = new Map([['status_closed', 1], ['entity_individual', 1]]);
    const active = new Map([['entity_individual', 1]]);
    // as assess() scores a mailing: the model's pairs of its features are terms of the account's shift too
    const probFor = async (account: string, f: Map<string, number>) => sigmoid(score(model, f).logit + accountShift(await provider.accountAdjustment(account, model), withPairs(model.pairs, f), modelScoreOf(model, withPairs(model.pairs, f))));
    const own = await provider.accountAdjustment(wholesaler, model);
    const shiftOf = (f: Map<string, number>) => accountShift(own, withPairs(model.pairs, f), modelScoreOf(model, withPairs(model.pairs, f)));
    assert.ok(shiftOf(closed) - shiftOf(active) < -1, `the wholesaler's shift on a closure: ${shiftOf(closed) - shiftOf(active)}`);
    assert.ok((await probFor(wholesaler, closed)) < 0.25, `a closed customer of the wholesaler: ${await probFor(wholesaler, closed)}`);
    // its active customers are not made safer than its labels say: the shift is on the closure
    assert.ok(Math.abs((await probFor(wholesaler, active)) - prob(model, Object.fromEntries(active))) < 0.03);
    for (const other of others) assert.ok((await probFor(other, closed)) > 0.4, `another account's closed customer: ${await probFor(other, closed)}`);
  });
});
