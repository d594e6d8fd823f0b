import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson, evidenceOf, receiptPayload, recordJsonFor } from './evidence.ts';

test('canonical JSON sorts keys at every level and keeps arrays in order', () => {
  assert.equal(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'x' }], c: true } }), '{"a":{"c":true,"d":[3,{"y":"x","z":null}]},"b":1}');
  assert.equal(canonicalJson({ a: undefined, b: '한글 "인용"' }), '{"b":"한글 \\"인용\\""}');
  assert.equal(canonicalJson([undefined, 1]), '[null,1]');
});

test('one answer served to one account is one record, whatever the key order NTS used', () => {
  const base = { accountId: 'acc_1', bno: '1248100998', api: 'status' as const, source: 'nts', checkedAt: '2026-11-25T00:00:00.000Z' };
  const a = evidenceOf({ ...base, record: { b_no: '1248100998', b_stt_cd: '01' } });
  const b = evidenceOf({ ...base, record: { b_stt_cd: '01', b_no: '1248100998' } });
  assert.equal(a.id, b.id);
  assert.match(a.id, /^ver_[0-9a-f]{32}$/);
  assert.notEqual(evidenceOf({ ...base, accountId: 'acc_2', record: a.record }).id, a.id, 'another account, another record');
  assert.notEqual(evidenceOf({ ...base, checkedAt: '2026-11-25T00:00:01.000Z', record: a.record }).id, a.id, 'another answer, another record');
  assert.equal(JSON.parse(receiptPayload(a)).record_sha256, a.recordSha256);
});

test('recordJsonFor splices each number into the shared rest: the same text canonicalJson gives the whole record', () => {
  const nts = { b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '', utcc_yn: 'N', rbf_tax_type_cd: '99', invoice_apply_dt: '' };
  for (const rest of [nts, {}, { a_first: 'x', ...nts }, { b_nn: 1, b_nz: [1, { k: 'v' }] }, { b_no: 'ignored', x: 1 }, { x: undefined, y: '"q"' }]) {
    const json = recordJsonFor(rest);
    for (const bno of ['1248100998', '0000000000', 'x"y']) assert.equal(json(bno), canonicalJson({ ...rest, b_no: bno }), JSON.stringify(rest));
  }
  const base = { accountId: 'acc_1', bno: '1248100998', api: 'status' as const, source: 'nts', checkedAt: '2026-11-25T00:00:00.000Z', record: { b_no: '1248100998', ...nts } };
  assert.equal(evidenceOf({ ...base, recordJson: recordJsonFor(nts)('1248100998') }).id, evidenceOf(base).id);
});
