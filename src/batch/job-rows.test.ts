// Rows without a name keep no result of their own: it is rebuilt from their number's answer.
// Rebuilt, it must be exactly what storing the result at processing time gave.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildVerification } from '../domain/verification.ts';
import { canonicalJson, evidenceOf } from '../domain/evidence.ts';
import { sandboxRecord } from '../registry/sandbox.ts';
import { SANDBOX_FIXED } from '../registry/sandbox.ts';
import type { StatusAnswer } from '../domain/status.ts';
import type { BatchRowInput, ChunkOutput } from '../domain/batch.ts';
import { decodeOutput, encodeOutput } from './chunk-codec.ts';
import { evidenceInputsOf, rowOf, scoredVerificationOf, statusOf, verificationOf } from './job-rows.ts';

const fixed = (status: string) => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
const answer = (bno: string, over: Partial<StatusAnswer> = {}): StatusAnswer => ({ record: sandboxRecord(bno), source: 'nts', checkedAt: '2026-11-22T01:02:03.000Z', fromCache: false, stale: false, ...over });
const row = (rowId: number, bnoRaw: string, bno: string | null, valid: boolean): BatchRowInput => ({ rowId, bnoRaw, bno, valid, name: null, address: null, cells: { b_no: bnoRaw } });

/** Rows 1–7: a number of each status NTS gives, one it did not answer, one failing its check digit, and no number at all. */
const everyKindOfRow = (): BatchRowInput[] => [
    row(1, fixed('active'), fixed('active'), true),
    row(2, fixed('closed'), fixed('closed'), true),
    row(3, fixed('suspended'), fixed('suspended'), true),
    row(4, fixed('unregistered'), fixed('unregistered'), true),
    row(5, '1234567891', '1234567891', true), // unanswered: unknown
    row(6, '123-45-67890', '1234567890', false), // check digit fails
    row(7, '전화번호', null, false), // not a number
];

test('a rebuilt result equals the stored one would have been, for every kind of row', () => {
  const rows = [
    ...everyKindOfRow(),
    row(8, fixed('active'), fixed('active'), true), // the same number again
    row(9, fixed('closed'), fixed('closed'), true),
  ];
  const answers: ChunkOutput['answers'] = new Map([
    [fixed('active'), answer(fixed('active'))],
    [fixed('closed'), answer(fixed('closed'), { fromCache: true, stale: true, checkedAt: '2026-11-01T00:00:00.000Z' })],
    [fixed('suspended'), answer(fixed('suspended'), { source: 'sandbox' })],
    [fixed('unregistered'), answer(fixed('unregistered'))],
    ['1234567891', null],
  ]);
  // through storage, as a reader gets it
  const chunk = { chunkNo: 1, firstRow: 1, lastRow: 9, rows, output: decodeOutput(encodeOutput({ answers, scored: new Map() })) };
  for (const r of rows) {
    const invalid = !r.valid || r.bno === null;
    const given = invalid ? null : (answers.get(r.bno!) ?? null);
    const built = buildVerification(r.bno ?? r.bnoRaw, given, { invalid, locale: 'ko' });
    const id = given ? evidenceOf({ accountId: 'acc_1', bno: r.bno!, api: 'status', source: given.source, checkedAt: given.checkedAt, record: given.record }).id : null;
    const stored = JSON.parse(JSON.stringify({ ...built, verification_id: id }));
    const rebuilt = rowOf(chunk, r, { accountId: 'acc_1', locale: 'ko' });
    assert.deepEqual(rebuilt.result, stored, `row ${r.rowId}`);
    assert.equal(statusOf(r, answers), stored.biz_status, `row ${r.rowId}: the counted status is the result's`);
    assert.deepEqual([rebuilt.features, rebuilt.addressKey], [null, null]);
  }
  assert.deepEqual(rows.map((r) => statusOf(r, answers)), ['active', 'closed', 'suspended', 'unregistered', 'unknown', 'invalid', 'invalid', 'active', 'closed']);
});

test('a scored row reads its stored result; a row of an unprocessed chunk has none', () => {
  const r = { ...row(1, fixed('active'), fixed('active'), true), name: '한빛' };
  const scored = { result: { b_no: fixed('active'), grade: 'A' }, features: { status_closed: 0 }, addressKey: 'k1' };
  const done = { chunkNo: 1, firstRow: 1, lastRow: 1, rows: [r], output: { answers: new Map([[fixed('active'), answer(fixed('active'))]]), scored: new Map([[1, scored]]) } };
  assert.deepEqual(rowOf(done, r, { accountId: 'acc_1', locale: 'ko' }), { ...r, ...scored });
  assert.deepEqual(rowOf({ ...done, output: null }, r, { accountId: 'acc_1', locale: 'ko' }), { ...r, result: null, features: null, addressKey: null });
});

test('a named row is assessed on exactly what its whole result says, for every kind of row', () => {
  const converted = { ...sandboxRecord(fixed('closed')), utcc_yn: 'Y' };
  const rows = [
    ...everyKindOfRow(),
    row(8, '2208162517', '2208162517', true), // converted (단위과세전환폐업)
  ];
  const answers: ChunkOutput['answers'] = new Map([
    [fixed('active'), answer(fixed('active'))],
    [fixed('closed'), answer(fixed('closed'), { fromCache: true, stale: true })],
    [fixed('suspended'), answer(fixed('suspended'))],
    [fixed('unregistered'), answer(fixed('unregistered'))],
    ['1234567891', null],
    ['2208162517', { ...answer('2208162517'), record: { ...converted, b_no: '2208162517' } }],
  ]);
  const statuses = new Set<string>();
  for (const r of rows) {
    const whole = verificationOf(r, answers, 'acc_1', undefined, 'en');
    const expected = { b_no: whole.b_no, biz_status: whole.biz_status, closed_on: whole.closed_on, entity_type: whole.entity_type, nts: whole.nts ? { end_dt: whole.nts.end_dt, tax_type_cd: whole.nts.tax_type_cd } : null };
    assert.deepEqual(scoredVerificationOf(r, answers), expected, `row ${r.rowId}`);
    statuses.add(whole.biz_status);
  }
  assert.deepEqual([...statuses].toSorted(), ['active', 'closed', 'converted', 'invalid', 'suspended', 'unknown', 'unregistered']);
});

test("a chunk's evidence carries each record's own canonical JSON, alike records sharing the work", () => {
  const answers: ChunkOutput['answers'] = new Map();
  for (const status of ['active', 'closed', 'suspended', 'unregistered', 'active', 'closed']) {
    for (let i = 0; i < 3; i++) {
      const bno = `${fixed(status).slice(0, 8)}${i}${answers.size % 10}`;
      answers.set(bno, answer(bno, { record: { ...sandboxRecord(fixed(status)), b_no: bno } }));
    }
  }
  // records that differ in one field only, one with a field of its own, one without its number
  const base = sandboxRecord(fixed('active'));
  answers.set('1111111119', answer('1111111119', { record: { ...base, b_no: '1111111119', tax_type: '다른 과세유형' } }));
  answers.set('2222222227', answer('2222222227', { record: { ...base, b_no: '2222222227', extra: 'x' } as typeof base }));
  answers.set('3333333335', answer('3333333335', { record: { ...base, b_no: '9999999999' } }));
  answers.set('4444444443', null);
  const inputs = evidenceInputsOf('acc_1', answers);
  assert.equal(inputs.length, answers.size - 1);
  for (const e of inputs) {
    assert.equal(e.recordJson, canonicalJson(e.record), e.bno);
    const { recordJson: _, ...bare } = e;
    assert.equal(evidenceOf(e).id, evidenceOf(bare).id, e.bno);
  }
});
