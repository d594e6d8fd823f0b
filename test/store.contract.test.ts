// One contract for every store implementation: what the rest of the service relies on.
import assert from 'node:assert/strict';
import { loadMigrations } from '../src/store/migrations.ts';
import { before, test } from 'node:test';
import { StoreConflict, type Store } from '../src/store/store.ts';
import type { Account } from '../src/domain/account.ts';
import type { LabelRecord } from '../src/domain/label.ts';
import type { ModelParams } from '../src/domain/model/types.ts';
import type { CachedStatus, NtsRecord } from '../src/domain/status.ts';
import { describeEachStore, useFreshStore } from './helpers/stores.ts';

let seq = 0;
const account = (over: Partial<Account> = {}): Account => ({
  id: `acc_contract_${++seq}`,
  email: `c${seq}@example.com`,
  plan: 'business',
  quotaLimit: null,
  batchRetentionDays: null,
  createdAt: new Date().toISOString(),
  ...over,
});

const t = (iso: string): string => new Date(iso).toISOString();
const m = (version: string, createdAt: string): ModelParams => ({ version, kind: 'global', intercept: -3, weights: { status_closed: 3 }, trainedOn: 10, createdAt });

const record = (bno: string, cd: NtsRecord['b_stt_cd'] = '01'): NtsRecord => ({
  b_no: bno, b_stt: cd === '01' ? '계속사업자' : '', b_stt_cd: cd, tax_type: '부가가치세 일반과세자', tax_type_cd: '01',
  end_dt: '', utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '', rbf_tax_type_cd: '',
});

describeEachStore('store contract', (kind) => {
  const opened = useFreshStore(kind);
  let store: Store;
  before(() => {
    store = opened.store;
  });

  test('migrations run again apply nothing twice and keep the data', async () => {
    const a = account();
    await store.accounts.create(a);
    const every = loadMigrations(kind).map((x) => x.version);
    assert.deepEqual(await store.migrationVersions(), every, 'every migration applied once, in order');
    await Promise.all([store.migrate(), store.migrate()]);
    assert.deepEqual(await store.migrationVersions(), every, 'none recorded again');
    assert.deepEqual(await store.accounts.get(a.id), a, 'the data is untouched');
  });

  test('an account round-trips and a second account with the same email is a conflict', async () => {
    const a = account();
    await store.accounts.create(a);
    assert.deepEqual(await store.accounts.get(a.id), a);
    await assert.rejects(store.accounts.create(account({ email: a.email })), StoreConflict);
    assert.equal(await store.accounts.get('acc_missing'), null);
    assert.ok((await store.accounts.count()) >= 1);
  });

  test('plan and custom limit changes are returned and stored', async () => {
    const a = account({ plan: 'free' });
    await store.accounts.create(a);
    assert.equal((await store.accounts.setPlan(a.id, 'enterprise'))?.plan, 'enterprise');
    assert.equal((await store.accounts.setQuotaLimit(a.id, 1234))?.quotaLimit, 1234);
    assert.equal((await store.accounts.get(a.id))?.quotaLimit, 1234);
    assert.equal((await store.accounts.setQuotaLimit(a.id, null))?.quotaLimit, null);
    assert.equal(await store.accounts.setPlan('acc_missing', 'pro'), null);
  });

  test('a key is found by its hash until it is revoked, and is never readable back', async () => {
    const a = account();
    await store.accounts.create(a);
    const createdAt = new Date().toISOString();
    await store.keys.insert({ id: `key_${seq}`, accountId: a.id, prefix: `bzk_pref${seq}`, hash: `hash-${seq}`, createdAt, lastUsedAt: null, revokedAt: null });
    const found = await store.keys.findByHash(`hash-${seq}`);
    assert.equal(found?.account.id, a.id);
    assert.equal(found?.key.prefix, `bzk_pref${seq}`);
    assert.ok(!('hash' in (found?.key ?? {})), 'the hash is not handed back');
    const listed = await store.keys.list(a.id);
    assert.equal(listed.length, 1);
    assert.ok(!JSON.stringify(listed).includes(`hash-${seq}`));

    const revoked = await store.keys.revoke(a.id, `bzk_pref${seq}`, new Date().toISOString());
    assert.equal(revoked?.accountId, a.id);
    assert.ok(revoked?.revokedAt);
    assert.equal(await store.keys.findByHash(`hash-${seq}`), null);
    assert.equal(await store.keys.revoke(a.id, `bzk_pref${seq}`, new Date().toISOString()), null, 'revoking twice finds nothing');
  });

  test('last use is recorded at most once per interval', async () => {
    const a = account();
    await store.accounts.create(a);
    const id = `key_touch_${seq}`;
    await store.keys.insert({ id, accountId: a.id, prefix: `bzk_tch${seq}`, hash: `h-touch-${seq}`, createdAt: new Date().toISOString(), lastUsedAt: null, revokedAt: null });
    const t0 = new Date('2026-11-01T00:00:00Z');
    await store.keys.touch(id, t0.toISOString(), 60_000);
    await store.keys.touch(id, new Date(t0.getTime() + 30_000).toISOString(), 60_000);
    assert.equal((await store.keys.list(a.id))[0]?.lastUsedAt, t0.toISOString());
    const t2 = new Date(t0.getTime() + 61_000).toISOString();
    await store.keys.touch(id, t2, 60_000);
    assert.equal((await store.keys.list(a.id))[0]?.lastUsedAt, t2);
  });

  test('reservations never pass the limit and refunds give lookups back', async () => {
    const a = account();
    await store.accounts.create(a);
    assert.deepEqual(await store.usage.reserve(a.id, '2026-11', 3, 5), { granted: true, used: 3 });
    assert.deepEqual(await store.usage.reserve(a.id, '2026-11', 3, 5), { granted: false, used: 3 }, 'all or nothing');
    assert.deepEqual(await store.usage.reserve(a.id, '2026-11', 2, 5), { granted: true, used: 5 });
    assert.deepEqual(await store.usage.reserve(a.id, '2026-11', 1, 5), { granted: false, used: 5 });
    await store.usage.refund(a.id, '2026-11', 2);
    // by day too, when a day is given: a refund counts on its own day and never below zero
    await store.usage.reserve(a.id, '2026-10', 4, 100, '2026-10-30');
    await store.usage.reserveUpTo(a.id, '2026-10', 3, 100, '2026-10-31');
    await store.usage.refund(a.id, '2026-10', 5, '2026-10-31');
    assert.deepEqual(await store.usage.days(a.id, '2026-10-01', '2026-10-31'), [{ day: '2026-10-30', lookups: 4 }, { day: '2026-10-31', lookups: 0 }]);
    assert.deepEqual(await store.usage.get(a.id, '2026-11'), { used: 3, overage: 0 });
    assert.deepEqual(await store.usage.reserve(a.id, '2026-12', 6, 5), { granted: false, used: 0 }, 'more than the limit at once');
    assert.deepEqual(await store.usage.get(a.id, '2026-12'), { used: 0, overage: 0 }, 'a refused first reservation writes nothing');
    await store.usage.refund(a.id, '2026-11', 100);
    assert.equal((await store.usage.get(a.id, '2026-11')).used, 0, 'never below zero');
  });

  test('with 1 lookup left, exactly one of 50 concurrent reservations is granted', async () => {
    for (let round = 0; round < 5; round++) {
      const a = account();
      await store.accounts.create(a);
      await store.usage.reserve(a.id, '2026-11', 9, 10);
      const results = await Promise.all(Array.from({ length: 50 }, () => store.usage.reserve(a.id, '2026-11', 1, 10)));
      assert.equal(results.filter((r) => r.granted).length, 1);
      assert.equal((await store.usage.get(a.id, '2026-11')).used, 10);
    }
  });

  test('with an empty month, concurrent first reservations are exact too', async () => {
    const a = account();
    await store.accounts.create(a);
    const results = await Promise.all(Array.from({ length: 50 }, () => store.usage.reserve(a.id, '2027-01', 1, 7)));
    assert.equal(results.filter((r) => r.granted).length, 7);
    assert.equal((await store.usage.get(a.id, '2027-01')).used, 7);
  });

  test('reserveUpTo grants what fits, exactly, under concurrency', async () => {
    const a = account();
    await store.accounts.create(a);
    assert.deepEqual(await store.usage.reserveUpTo(a.id, '2026-11', 4, 10), { granted: 4, used: 4 });
    assert.deepEqual(await store.usage.reserveUpTo(a.id, '2026-11', 10, 10), { granted: 6, used: 10 });
    assert.deepEqual(await store.usage.reserveUpTo(a.id, '2026-11', 1, 10), { granted: 0, used: 10 });
    assert.deepEqual(await store.usage.reserveUpTo(a.id, '2026-12', 3, 0), { granted: 0, used: 0 });
    for (let round = 0; round < 5; round++) {
      const b = account();
      await store.accounts.create(b);
      const asks = Array.from({ length: 40 }, (_, i) => 1 + (i % 4));
      const results = await Promise.all(asks.map((n) => store.usage.reserveUpTo(b.id, '2026-11', n, 37)));
      assert.equal(results.reduce((s, r) => s + r.granted, 0), 37);
      assert.equal((await store.usage.get(b.id, '2026-11')).used, 37);
    }
  });

  test('a label per row: relabelling replaces, counts are per business and per address of the account', async () => {
    const a = account();
    const b = account();
    await store.accounts.create(a);
    await store.accounts.create(b);
    const labelsBefore = await store.labels.count();
    const label = (over: Partial<LabelRecord>): LabelRecord => ({
      accountId: a.id, jobId: 'job_1', rowId: 1, bno: '1248100998', addressKey: 'bld_1', bounced: true, reason: '수취인 불명', cause: 'unknown_recipient',
      features: { status_closed: 1 }, modelVersion: 'prior-test', at: new Date().toISOString(), ...over,
    });
    assert.deepEqual(await store.labels.put(label({})), { replaced: false });
    assert.deepEqual(await store.labels.put(label({ bounced: false, reason: null })), { replaced: true });
    await store.labels.put(label({ rowId: 2, bno: '2208162517', addressKey: 'bld_1', bounced: true }));
    await store.labels.put(label({ rowId: 3, bno: '1248100998', addressKey: null, bounced: true }));
    await store.labels.put(label({ accountId: b.id, rowId: 1, bounced: true }));
    // scored as the reference case (no feature set) vs never scored (no name: no model version)
    await store.labels.put(label({ accountId: b.id, rowId: 2, bounced: true, features: {} }));
    await store.labels.put(label({ accountId: b.id, rowId: 3, bounced: false, features: {}, modelVersion: null }));
    assert.equal(await store.labels.count(), labelsBefore + 6);
    assert.equal(await store.labels.count('2999-01-01T00:00:00.000Z'), 0);
    assert.ok((await store.labels.count('2000-01-01T00:00:00.000Z')) >= 5);
    assert.deepEqual(await store.labels.counts(a.id, '1248100998', 'bld_1'), { bizBounced: 1, bizDelivered: 1, bizGone: 1, bizAbsent: 0, addressBounced: 1, addressDelivered: 1 });
    assert.deepEqual(await store.labels.counts(a.id, '1248100998', null), { bizBounced: 1, bizDelivered: 1, bizGone: 1, bizAbsent: 0, addressBounced: 0, addressDelivered: 0 });
    assert.deepEqual(await store.labels.counts(b.id, '2208162517', null), { bizBounced: 0, bizDelivered: 0, bizGone: 0, bizAbsent: 0, addressBounced: 0, addressDelivered: 0 });
    assert.deepEqual(await store.labels.counts(b.id, '1248100998', 'bld_1'), { bizBounced: 2, bizDelivered: 1, bizGone: 2, bizAbsent: 0, addressBounced: 2, addressDelivered: 1 });
    // a relabel that moves the row to another number and address takes its outcome from the old ones
    await store.labels.put(label({ accountId: b.id, rowId: 3, bno: '2208162517', addressKey: 'bld_9', bounced: true, features: {}, modelVersion: null }));
    assert.deepEqual(await store.labels.counts(b.id, '1248100998', 'bld_1'), { bizBounced: 2, bizDelivered: 0, bizGone: 2, bizAbsent: 0, addressBounced: 2, addressDelivered: 0 });
    assert.deepEqual(await store.labels.counts(b.id, '2208162517', 'bld_9'), { bizBounced: 1, bizDelivered: 0, bizGone: 1, bizAbsent: 0, addressBounced: 1, addressDelivered: 0 });
    // a chunk's many mailings (lists of numbers and addresses) read what each alone reads (plain values)
    const asked = [['1248100998', 'bld_1'], ['2208162517', 'bld_9'], ['2208162517', null], ['1248100998', 'bld_9'], ['9999999999', 'bld_0']] as const;
    assert.deepEqual(
      await store.labels.countsMany(b.id, asked.map(([bno, addressKey]) => ({ bno, addressKey }))),
      await Promise.all(asked.map(([bno, addressKey]) => store.labels.counts(b.id, bno, addressKey))),
    );
    const fit = await store.labels.forFit(1000);
    assert.ok(fit.some((f) => f.accountId === b.id && f.bounced && f.features.status_closed === 1));
    const ofB = fit.filter((f) => f.accountId === b.id);
    assert.equal(ofB.length, 2, 'every scored row is fitted on, the reference case too; an unscored one is not');
    assert.ok(ofB.some((f) => Object.keys(f.features).length === 0 && f.bounced));
    assert.equal((await store.labels.forFit(2)).length, 2);
  });

  test('concurrent labels of one row count once in the tallies, and only one of them is new', async () => {
    const a = account();
    await store.accounts.create(a);
    const puts = await Promise.all(
      Array.from({ length: 12 }, (_, i) => store.labels.put({
        accountId: a.id, jobId: 'job_c', rowId: 7, bno: '1248100998', addressKey: 'bld_c', bounced: i % 2 === 0, reason: null, cause: null,
        features: {}, modelVersion: 'prior-test', at: new Date().toISOString(),
      })),
    );
    assert.equal(puts.filter((p) => !p.replaced).length, 1);
    const c = await store.labels.counts(a.id, '1248100998', 'bld_c');
    assert.equal(c.bizBounced + c.bizDelivered, 1);
    assert.equal(c.addressBounced + c.addressDelivered, 1);
  });

  test('the tallies keep what the bounces said: gone (moved, unknown, closed) or absent (nobody in), relabels taken back', async () => {
    const a = account();
    await store.accounts.create(a);
    const rec = (rowId: number, bounced: boolean, cause: LabelRecord['cause']): LabelRecord => ({
      accountId: a.id, jobId: 'job_g', rowId, bno: '1248100998', addressKey: 'bld_g', bounced, reason: null, cause, features: {}, modelVersion: 'prior-test', at: new Date().toISOString(),
    });
    await store.labels.putMany([rec(1, true, 'moved'), rec(2, true, 'unknown_recipient'), rec(3, true, 'nobody_home'), rec(4, true, 'bad_address'), rec(5, false, null)]);
    const c = await store.labels.counts(a.id, '1248100998', 'bld_g');
    assert.deepEqual([c.bizBounced, c.bizDelivered, c.bizGone, c.bizAbsent], [4, 1, 2, 1]);
    // row 1 turns out delivered, row 3 was refused: moved out, nobody-in swapped for refused (still absent)
    await store.labels.put(rec(1, false, null));
    await store.labels.put(rec(3, true, 'refused'));
    const d = await store.labels.counts(a.id, '1248100998', 'bld_g');
    assert.deepEqual([d.bizBounced, d.bizDelivered, d.bizGone, d.bizAbsent], [3, 2, 1, 1]);
  });

  test('labels in bulk and one by one, at once, on two jobs sharing numbers: no deadlock, one tally per label', async () => {
    const a = account();
    await store.accounts.create(a);
    const numbers = Array.from({ length: 40 }, (_, i) => String(1_100_000_000 + i));
    const rec = (jobId: string, rowId: number, i: number, bounced: boolean): LabelRecord => ({
      accountId: a.id, jobId, rowId, bno: numbers[i % numbers.length]!, addressKey: `bld_${i % 7}`, bounced, reason: null, cause: null,
      features: {}, modelVersion: 'prior-test', at: new Date().toISOString(),
    });
    // the two jobs name the numbers in opposite orders, and every write is done twice with the other outcome
    const bulk = (jobId: string, reverse: boolean, bounced: boolean) => store.labels.putMany(Array.from({ length: 40 }, (_, r) => rec(jobId, r + 1, reverse ? 39 - r : r, bounced)));
    await Promise.all([bulk('job_x', false, true), bulk('job_y', true, false), bulk('job_x', false, false), bulk('job_y', true, true),
      ...Array.from({ length: 20 }, (_, r) => store.labels.put(rec(r % 2 ? 'job_x' : 'job_y', r + 1, r % 2 ? r : 39 - r, r % 3 === 0)))]);
    let total = 0;
    for (const n of numbers) {
      const c = await store.labels.counts(a.id, n, null);
      total += c.bizBounced + c.bizDelivered;
    }
    assert.equal(total, 80, 'two jobs × 40 rows, however often relabelled');
    let byAddress = 0;
    for (let i = 0; i < 7; i++) {
      const c = await store.labels.counts(a.id, 'none', `bld_${i}`);
      byAddress += c.addressBounced + c.addressDelivered;
    }
    assert.equal(byAddress, 80);
  });

  test('models: the newest global model wins; account offsets are replaced', async () => {
    const a = account();
    await store.accounts.create(a);
    assert.equal(await store.models.latest(), null);
    await store.models.save(m('g-1', '2026-11-01T00:00:00.000Z'));
    await store.models.save(m('g-2', '2026-11-02T00:00:00.000Z'));
    await store.models.save({ ...m('g-1', '2026-11-03T00:00:00.000Z'), intercept: 9 }); // a version is never rewritten
    assert.deepEqual(await store.models.latest(), m('g-2', '2026-11-02T00:00:00.000Z'));
    await store.models.saveOffsets([{ accountId: a.id, modelVersion: 'g-1', offset: 0.2, weights: {}, trainedOn: 5, createdAt: '2026-11-01T00:00:00.000Z' }]);
    await store.models.saveOffsets([{ accountId: a.id, modelVersion: 'g-2', offset: -0.4, weights: { status_closed: -1.25 }, trainedOn: 9, createdAt: '2026-11-02T00:00:00.000Z' }]);
    assert.deepEqual(await store.models.offset(a.id), { accountId: a.id, modelVersion: 'g-2', offset: -0.4, weights: { status_closed: -1.25 }, trainedOn: 9, createdAt: '2026-11-02T00:00:00.000Z' });
    assert.equal(await store.models.offset('acc_none'), null);
  });

  test('a lease is held by one holder until it expires or is released', async () => {
    const t0 = new Date('2026-11-21T00:00:00Z');
    const later = (ms: number) => new Date(t0.getTime() + ms);
    assert.equal(await store.leases.take('refit', 'p1', 60_000, t0), true);
    assert.equal(await store.leases.take('refit', 'p2', 60_000, later(1000)), false);
    assert.equal(await store.leases.take('refit', 'p1', 60_000, later(2000)), true, 'the holder renews');
    assert.equal(await store.leases.take('refit', 'p2', 60_000, later(63_000)), true, 'expired: taken over');
    await store.leases.release('refit', 'p1'); // not the holder: no effect
    assert.equal(await store.leases.take('refit', 'p1', 60_000, later(64_000)), false);
    await store.leases.release('refit', 'p2');
    assert.equal(await store.leases.take('refit', 'p1', 60_000, later(65_000)), true);
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((h) => store.leases.take('race', h, 60_000, t0)));
    assert.equal(results.filter(Boolean).length, 1);
  });

  test('the status cache keeps the newest answer per number', async () => {
    const entry = (bno: string, cd: NtsRecord['b_stt_cd'], at: string): CachedStatus => ({
      record: record(bno, cd), source: 'sandbox', checkedAt: t(at), expiresAt: t('2030-01-01T00:00:00Z'),
    });
    await store.statusCache.putCachedStatuses([entry('1248100998', '01', '2026-11-01T00:00:00Z'), entry('1234567891', '', '2026-11-01T00:00:00Z')]);
    await store.statusCache.putCachedStatuses([entry('1248100998', '03', '2026-10-01T00:00:00Z')]); // older: ignored
    const got = await store.statusCache.getCachedStatuses(['1248100998', '1234567891', '9999999999']);
    assert.equal(got.size, 2);
    assert.equal(got.get('1248100998')?.record.b_stt_cd, '01');
    assert.equal(got.get('1234567891')?.record.b_stt_cd, '');
    assert.equal(got.get('1248100998')?.checkedAt, t('2026-11-01T00:00:00Z'));
    await store.statusCache.putCachedStatuses([entry('1248100998', '03', '2026-11-02T00:00:00Z'), entry('1248100998', '02', '2026-11-03T00:00:00Z')]);
    assert.equal((await store.statusCache.getCachedStatuses(['1248100998'])).get('1248100998')?.record.b_stt_cd, '02');
    assert.equal((await store.statusCache.getCachedStatuses([])).size, 0);
  });
});
