// A batch chunk's rows scored in the address thread that checked their addresses are what the
// in-process assessment gives them; and when the thread no longer holds the checks (it died, or
// dropped them), the chunk is assessed in-process instead, with the same result.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAddressService } from '../addresses/address-service.ts';
import { AddressThreads } from '../addresses/address-threads.ts';
import { SandboxDirectory } from '../addresses/sandbox-directory.ts';
import { sandboxWorld } from '../addresses/sandbox-data.ts';
import { PRIOR_MODEL } from '../domain/model/prior.ts';
import type { AccountAdjustment, AssessmentInput } from '../domain/model/types.ts';
import type { LabelCounts } from '../domain/label.ts';
import { buildVerification } from '../domain/verification.ts';
import { sandboxRecord } from '../registry/sandbox.ts';
import { checkDigitOf } from '../domain/bizno.ts';
import type { Account } from '../domain/account.ts';
import type { ModelProvider } from '../model/model-provider.ts';
import { AssessService, type Mailing } from './assess-service.ts';
import { type ChunkMailing, inputKey, JudgementMemo, type KeptChunk, keptChunk, overOfKept, ScoreMemo, scoreChunk, scoreMailings, type ScoringContext } from '../domain/mailing-score.ts';
import type { AddressCheck } from '../addresses/address-service.ts';
import type { NtsRecord } from '../domain/status.ts';

const T = { timeout: 60_000 };
const ASOF = new Date('2026-11-20T03:00:00Z');
const account = { id: 'acc_test' } as Account;
// an account whose own outcomes moved its weights, and outcomes for some numbers: both must reach the thread
const adjustment: AccountAdjustment = { offset: 0.4, weights: { missing_unit: 0.8, status_closed: -0.5 } };
const models = { current: async () => PRIOR_MODEL, accountAdjustment: async () => adjustment } as unknown as ModelProvider;
const history = (bno: string): LabelCounts => (Number(bno.at(-2)) % 3 === 0 ? { bizBounced: 2, bizDelivered: 1, bizGone: 1, bizAbsent: 0, addressBounced: 1, addressDelivered: 0 } : { bizBounced: 0, bizDelivered: 0, bizGone: 0, bizAbsent: 0, addressBounced: 0, addressDelivered: 0 });
const labels = { countsMany: async (_: string, keys: readonly { bno: string }[]) => keys.map((k) => history(k.bno)) };

function mailings(): Mailing[] {
  const world = sandboxWorld();
  return world.entries.slice(0, 60).map((e, i) => {
    const nine = String(310_000_000 + i * 7_919);
    const bno = nine + checkDigitOf(nine);
    const address = i % 7 === 0 ? '' : i % 5 === 0 ? `${e.sido} ${e.sigungu} ${e.eupmyeondong} ${e.jibunMain}` : `${e.sido.slice(0, 2)} ${e.sigungu} ${e.roadName} ${e.buildingMain}${i % 4 === 0 ? ' 3층' : ''}`;
    const v = buildVerification(bno, { record: sandboxRecord(bno), source: 'sandbox', checkedAt: '2026-11-19T00:00:00.000Z', fromCache: false, stale: false }, { invalid: false, locale: 'ko' });
    return { v, name: ['(주)한빛식당', '대성약국', '미래세무회계', '(폐업)우리상사'][i % 4]!, address, liveNeighbour: null };
  });
}

/** Each row of a kept chunk as it reads back: its result's text (fields in order), features, grade, model version and address key. */
function readBack(kept: KeptChunk): unknown[] {
  return kept.rows.map((r) => {
    const j = kept.judgements[r.judgement]!;
    return [JSON.stringify(overOfKept(JSON.parse(j.judged) as unknown[], JSON.parse(r.own) as unknown[])), j.features, j.grade, j.modelVersion, r.addressKey];
  });
}

test('rows scored in the thread that checked their addresses are what the in-process assessment gives', T, async () => {
  const threads = new AddressThreads(createAddressService(new SandboxDirectory()), { directory: 'sandbox' }, 1);
  const warned: string[] = [];
  const assess = new AssessService({ addresses: threads, models, store: { labels }, log: { warn: (_, m) => warned.push(m) } });
  const inProcess = new AssessService({ addresses: createAddressService(new SandboxDirectory()), models, store: { labels } });
  try {
    const list = mailings();
    const expected = keptChunk(await inProcess.assessMany(account, list, 'ko', ASOF));
    const pending = assess.checkAddresses(list.map((m) => m.address));
    assert.ok('thread' in pending, 'the chunk\'s checks are kept in a thread');
    assert.deepEqual(readBack(await assess.assessChunk(account, list, 'ko', ASOF, pending)), readBack(expected));
    assert.equal(threads.scoredInThreads, 1);
    assert.ok(expected.judgements.some((j) => (JSON.parse(j.judged) as unknown[][])[3]!.some((r) => String(r).includes('반송'))), 'some rows were scored with their outcomes');

    // the thread gave its checks up with the scoring: asked again, the chunk is assessed in-process
    assert.deepEqual(readBack(await assess.assessChunk(account, list, 'ko', ASOF, pending)), readBack(expected));
    assert.equal(threads.scoredInThreads, 1);
    assert.match(warned.join('\n'), /scoring it in-process/);
  } finally {
    await threads.close();
  }
});

/**
 * Varied rows, many alike: statuses and closure dates from the sandbox's numbers, addresses
 * matched, damaged, missing and unanswered, names of several trades, outcomes, a live neighbour.
 */
async function variedRows(): Promise<{ rows: ChunkMailing[]; checks: Map<string, AddressCheck | Error> }> {
  const service = createAddressService(new SandboxDirectory());
  const world = sandboxWorld();
  const names = ['(주)한빛식당', '대성약국', '미래세무회계', '(폐업)우리상사', '한국정밀 지점', '', '행복부동산'];
  const rows: ChunkMailing[] = [];
  const raws: string[] = [];
  for (let i = 0; i < 600; i++) {
    const e = world.entries[i % 40]!;
    const nine = String(120_000_000 + (i % 150) * 104_729);
    const bno = nine + checkDigitOf(nine);
    const raw = i % 11 === 0 ? '' : i % 13 === 0 ? 'not an address at all 999' : i % 5 === 0 ? `${e.sido} ${e.sigungu} ${e.eupmyeondong} ${e.jibunMain}` : `${e.sido.slice(0, 2)} ${e.sigungu} ${e.roadName} ${e.buildingMain}${i % 4 === 0 ? ' 3층' : ''}`;
    raws.push(raw);
    const v = buildVerification(bno, { record: sandboxRecord(bno), source: 'sandbox', checkedAt: '2026-11-19T00:00:00.000Z', fromCache: false, stale: false }, { invalid: false, locale: 'ko' });
    rows.push({ v, name: names[i % names.length]!, raw, liveNeighbour: i % 17 === 0 ? ['1248100998', '2208162517', '1018115582'][i % 3]! : null, history: history(bno) });
  }
  const checks = new Map<string, AddressCheck | Error>(await service.checkMany([...new Set(raws.filter(Boolean))]));
  // the directory did not answer for one address
  checks.set(raws[3]!, new Error('directory down'));
  return { rows, checks };
}

test('single mailings judged with the judgements kept from earlier ones are what judging afresh gives', T, async () => {
  const { rows, checks } = await variedRows();
  const other: AccountAdjustment = { ...adjustment };
  const contexts: ScoringContext[] = [
    { model: PRIOR_MODEL, adjustment, locale: 'ko', asOf: ASOF },
    { model: PRIOR_MODEL, adjustment: null, locale: 'en', asOf: ASOF },
    { model: PRIOR_MODEL, adjustment: { offset: -0.6, weights: {} }, locale: 'ko', asOf: new Date('2026-12-31T16:00:00Z') },
    { model: { ...PRIOR_MODEL, intercept: PRIOR_MODEL.intercept + 0.3 }, adjustment, locale: 'ko', asOf: ASOF },
    { model: PRIOR_MODEL, adjustment: other, locale: 'ko', asOf: ASOF },
  ];
  // small, so that rounds also run after the memo was emptied
  const memo = new JudgementMemo({ inputs: 50 });
  for (const round of [0, 1]) {
    for (const ctx of contexts) {
      // one mailing at a time, as POST /verify asks
      const kept = rows.map((r) => scoreMailings([r], checks, ctx, memo)[0]!);
      const fresh = scoreMailings(rows, checks, ctx);
      assert.deepEqual(kept.map(({ fields, address, features, addressKey }) => ({ fields, address, features, addressKey })), fresh.map(({ fields, address, features, addressKey }) => ({ fields, address, features, addressKey })), `round ${round}`);
    }
  }
  // two businesses with the same model input share one judgement; the memo is what answered the second
  const first = rows.find((r) => r.v.biz_status === 'active' && r.raw)!;
  const nine = String(Number(first.v.b_no.slice(0, 9)) + 1);
  const twin: ChunkMailing = { ...first, v: { ...first.v, b_no: nine + checkDigitOf(nine) } };
  const one = new JudgementMemo();
  const [a, b] = [first, twin].map((r) => scoreMailings([r], checks, contexts[0]!, one)[0]!);
  assert.equal(a!.fields.reasons, b!.fields.reasons);
  assert.notEqual(scoreMailings([twin], checks, contexts[0]!)[0]!.fields.reasons, a!.fields.reasons);
});

test('a chunk scored with judgements kept from earlier chunks is the text scoring it afresh gives', T, async () => {
  const { rows, checks } = await variedRows();
  const contexts: ScoringContext[] = [
    { model: PRIOR_MODEL, adjustment, locale: 'ko', asOf: ASOF },
    { model: PRIOR_MODEL, adjustment: null, locale: 'en', asOf: ASOF },
    { model: { ...PRIOR_MODEL, version: PRIOR_MODEL.version, intercept: PRIOR_MODEL.intercept + 0.3 }, adjustment, locale: 'ko', asOf: ASOF },
  ];
  const memo = new ScoreMemo();
  for (const round of [0, 1]) {
    for (const ctx of contexts) {
      for (let at = 0; at < rows.length; at += 200) {
        const chunk = rows.slice(at, at + 200);
        assert.deepEqual(readBack(scoreChunk(chunk, checks, ctx, memo)), readBack(keptChunk(scoreMailings(chunk, checks, ctx))), `round ${round}, rows ${at}…`);
      }
    }
  }
  const statuses = new Set(rows.map((r) => r.v.biz_status));
  assert.ok(statuses.size >= 3, `several statuses (${[...statuses].join(', ')})`);
  // a model that differs only in its weights (same version) is judged apart
  assert.notDeepEqual(readBack(scoreChunk(rows.slice(0, 50), checks, contexts[2]!, memo)), readBack(scoreChunk(rows.slice(0, 50), checks, contexts[0]!, memo)));
});

const verification = (bno: string, record: NtsRecord) =>
  buildVerification(bno, { record, source: 'sandbox', checkedAt: '2026-11-19T00:00:00.000Z', fromCache: false, stale: false }, { invalid: false, locale: 'ko' });

test('closed businesses of other dates and numbers with other live neighbours share a judgement, each row reading as judged afresh', T, async () => {
  const service = createAddressService(new SandboxDirectory());
  const e = sandboxWorld().entries[0]!;
  const raw = `${e.sido} ${e.sigungu} ${e.roadName} ${e.buildingMain}`;
  const checks = new Map<string, AddressCheck | Error>(await service.checkMany([raw]));
  const none = history('0');
  // corporate head offices (81) all: alike but for the date or the neighbour
  const numbers = Array.from({ length: 400 }, (_, i) => {
    const nine = `12081${String(1000 + i * 7)}`;
    return nine + checkDigitOf(nine);
  });
  // closures across the recency curve's bins, several in each, and dates it cannot read
  const dates = ['20261110', '20261001', '20260915', '20260501', '20260102', '20250301', '20240101', '20230615', '20221231', '20210101', '20190505', '20100101', '2024', ''];
  const general = { tax_type: '부가가치세 일반과세자', tax_type_cd: '01' };
  const closed = dates.map((endDt, i) => ({ v: verification(numbers[i]!, { ...sandboxRecord(numbers[i]!), ...general, b_stt: '폐업자', b_stt_cd: '03', end_dt: endDt }), name: '(주)한빛식당', raw, liveNeighbour: null, history: none }));
  const unknown = numbers.map((bno) => sandboxRecord(bno)).find((r) => verification(r.b_no, r).biz_status === 'unregistered')!;
  const unregistered = numbers.slice(-4).map((bno) => verification(bno, { ...unknown, b_no: bno }));
  assert.ok(unregistered.every((v) => v.biz_status === 'unregistered'), 'an unregistered answer in the sandbox, given to four numbers');
  const nearLive = unregistered.map((v, i) => ({ v, name: '대성약국', raw, liveNeighbour: ['1248100998', '2208162517', '1018115582', null][i] ?? null, history: none }));
  const rows: ChunkMailing[] = [...closed, ...nearLive];
  for (const ctx of [{ model: PRIOR_MODEL, adjustment, locale: 'ko', asOf: ASOF }, { model: PRIOR_MODEL, adjustment: null, locale: 'en', asOf: ASOF }] satisfies ScoringContext[]) {
    const memo = new ScoreMemo();
    // one row a chunk, and then all of them in one: the later rows take what the earlier ones kept
    for (const row of rows) assert.deepEqual(readBack(scoreChunk([row], checks, ctx, memo)), readBack(keptChunk(scoreMailings([row], checks, ctx))), `${row.v.closed_on ?? row.liveNeighbour}`);
    const all = scoreChunk(rows, checks, ctx, memo);
    assert.deepEqual(readBack(all), readBack(keptChunk(scoreMailings(rows, checks, ctx))));
    const shown = readBack(all).map((r) => (r as string[])[0]!);
    assert.ok(shown.some((text) => text.includes('2023-06-15')) && shown.some((text) => text.includes('220-81-62517')), 'each row shows its own date and neighbour');
    assert.ok(memo.of(ctx).size < rows.length - 4, `rows alike but for the date or neighbour were judged once (${memo.of(ctx).size} judgements kept for ${rows.length} rows)`);
  }
});

test('a kept row read back is the assessment /verify gives: every field, in its order', T, async () => {
  const inProcess = new AssessService({ addresses: createAddressService(new SandboxDirectory()), models, store: { labels } });
  const list = mailings();
  const assessed = await inProcess.assessMany(account, list, 'ko', ASOF);
  const kept = keptChunk(assessed);
  assert.ok(kept.judgements.length < list.length, `rows share judgements (${kept.judgements.length} for ${list.length} rows)`);
  assessed.forEach((a, i) => {
    const row = kept.rows[i]!;
    const over = overOfKept(JSON.parse(kept.judgements[row.judgement]!.judged) as unknown[], JSON.parse(row.own) as unknown[]);
    // the text of the object, so that the order of its fields is compared too
    assert.equal(JSON.stringify(over), JSON.stringify({ ...a.fields, address: a.address }), `row ${i}`);
    assert.deepEqual(JSON.parse(kept.judgements[row.judgement]!.features), a.features);
  });
  assert.ok(assessed.some((a) => a.address === null) && assessed.some((a) => a.address?.building_id), 'rows with and without an address report');
});

/** Another value of a model input's field, of its kind. */
const changed = (v: unknown): unknown => (typeof v === 'boolean' ? !v : typeof v === 'number' ? v + 1 : typeof v === 'string' ? `${v}x` : 'x');

test('a model input is remembered by a key that tells apart every input that differs', () => {
  const base: AssessmentInput = {
    status: 'active', closedOn: null, taxTypeCode: '01', entityKind: 'individual_taxable', addressQuality: 'exact', addressChanges: 0, missingBuildingNumber: false, missingUnit: false,
    zipMismatch: false, outdatedZip: false, formerRoad: false, liveNeighbour: null, addressForm: 'road', notFound: null, buildingKind: 'apartment', rural: false,
    name: { entityMismatch: false, closureHint: false, trade: null, branch: false }, history: { bizBounced: 0, bizDelivered: 0, bizGone: 0, bizAbsent: 0, addressBounced: 0, addressDelivered: 0 }, asOf: '2026-11-27',
  };
  // every field changed in turn, nested ones too: a field the key left out would share a key
  const variants: AssessmentInput[] = [base];
  for (const [k, v] of Object.entries(base) as [keyof AssessmentInput, unknown][]) {
    if (v !== null && typeof v === 'object') {
      for (const [nk, nv] of Object.entries(v)) variants.push({ ...base, [k]: { ...v, [nk]: changed(nv) } });
    } else variants.push({ ...base, [k]: changed(v) });
  }
  assert.equal(variants.length, 1 + 17 + 4 + 6, 'every field of the input was changed once');
  variants.push(
    { ...base, closedOn: '2026-01-02' },
    { ...base, name: { ...base.name, trade: 'food' } },
    { ...base, taxTypeCode: '' },
    // texts that look like the key's own marks are keyed by their JSON
    { ...base, taxTypeCode: '01|F' },
    { ...base, taxTypeCode: '~' },
    { ...base, liveNeighbour: '~' },
    { ...base, taxTypeCode: '01}{' },
  );
  const keys = variants.flatMap((v) => [inputKey(v, false), inputKey(v, true)]);
  assert.equal(new Set(keys).size, keys.length);
  assert.equal(inputKey(structuredClone(base), false), inputKey(base, false), 'equal inputs, one key');
});
