import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { NtsRecord, StatusAnswer } from '../domain/status.ts';
import type { BatchRowInput, ChunkOutput, ScoredRow } from '../domain/batch.ts';
import { decodeOutput, decodeRows, encodeFacts, encodeOutput, encodeRows, rowFactsOf } from './chunk-codec.ts';

const record = (bno: string, over: Partial<NtsRecord> = {}): NtsRecord => ({
  b_no: bno, b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '', utcc_yn: 'N',
  tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99', ...over,
});
const answer = (bno: string, over: Partial<StatusAnswer> = {}, rec: Partial<NtsRecord> = {}): StatusAnswer => ({
  record: record(bno, rec), source: 'nts', checkedAt: '2026-11-22T00:00:00.000Z', fromCache: false, stale: false, ...over,
});

test('a chunk output reads back exactly as written, whatever its answers share', () => {
  const output: ChunkOutput = {
    answers: new Map([
      ['1000000001', answer('1000000001')],
      ['1000000002', answer('1000000002')],
      ['1000000003', answer('1000000003', { stale: true, fromCache: true })],
      ['1000000004', answer('1000000004', {}, { b_stt_cd: '03', b_stt: '폐업자', end_dt: '20240301' })],
      ['1000000005', answer('1000000005', { checkedAt: '2026-11-22T00:00:01.000Z' })],
      ['1000000006', null],
      // a record that does not carry its own number is kept whole
      ['1000000007', answer('9999999999')],
    ]),
    scored: new Map([[3, { result: { b_no: '1000000003', grade: 'B' }, features: { a: 1 }, addressKey: null }]]),
  };
  const text = encodeOutput(output);
  assert.deepEqual(decodeOutput(text), output);
  assert.equal((text.match(/계속사업자/g) ?? []).length, 4, 'alike answers are written once');
});

const cached = (bno: string, checkedAt: string) => answer(bno, { fromCache: true, checkedAt });

test('a chunk answered from the cache reads back the same from either grouped form (by check time, written before 2026-11-26, or with the times beside the numbers)', () => {
  const expected = new Map([
    ['1000000001', cached('1000000001', '2026-11-22T00:00:00.000Z')],
    ['1000000002', cached('1000000002', '2026-11-22T00:00:05.000Z')],
    ['1000000003', cached('1000000003', '2026-11-22T00:00:00.000Z')],
  ]);
  const { b_no: _, ...rest } = record('1000000001');
  const d = { record: rest, source: 'nts', fromCache: true, stale: false };
  // as the writer spelled them: the check time after the source
  const at = (checkedAt: string) => ({ record: rest, source: 'nts', checkedAt, fromCache: true, stale: false });
  const legacy = JSON.stringify({
    groups: [[at('2026-11-22T00:00:00.000Z'), ['1000000001', '1000000003']], [at('2026-11-22T00:00:05.000Z'), ['1000000002']]],
    scored: [],
  });
  const timed = JSON.stringify({ timed: [[d, ['1000000001', '1000000002', '1000000003'], ['2026-11-22T00:00:00.000Z', '2026-11-22T00:00:05.000Z', '2026-11-22T00:00:00.000Z']]], scored: [] });
  assert.deepEqual(decodeOutput(legacy).answers, expected);
  assert.deepEqual(decodeOutput(timed).answers, expected);
  // key order too: results render the answer as it is read
  assert.deepEqual(Object.keys(decodeOutput(timed).answers.get('1000000002')!), Object.keys(decodeOutput(legacy).answers.get('1000000002')!));
});

test('a chunk of rows reads back exactly as written', () => {
  const rows: BatchRowInput[] = [
    { rowId: 7, bnoRaw: '124-81-00998', bno: '1248100998', valid: true, name: '(주)한빛', address: '서울 강남구', cells: { 사업자등록번호: '124-81-00998', 상호: '(주)한빛', 주소: '서울 강남구' } },
    { rowId: 8, bnoRaw: 'abc', bno: null, valid: false, name: null, address: null, cells: { 사업자등록번호: 'abc' } },
  ];
  assert.deepEqual(decodeRows(encodeRows(rows, ['사업자등록번호', '상호', '주소']), ['사업자등록번호', '상호', '주소']), rows);
  // headers that read as numbers keep their place (an object would list them first)
  const years: BatchRowInput = { rowId: 9, bnoRaw: '1', bno: null, valid: false, name: null, address: null, cells: { 사업자등록번호: '1', 2024: 'b', 2023: 'a' } };
  assert.deepEqual(decodeRows(encodeRows([years], ['사업자등록번호', '2024', '2023', '비고']), ['사업자등록번호', '2024', '2023', '비고']), [years]);
  // rows moved over from before chunks keep their cells keyed
  assert.deepEqual(decodeRows(JSON.stringify([[8, 'abc', null, false, null, null, { 사업자등록번호: 'abc' }]]), ['사업자등록번호', '상호']), [rows[1]]);
});

test('a named row keeps its number, name and address once: as its cells, which they are trimmed, and reads back the same', () => {
  const columns = ['번호', '사업자등록번호', '상호', '주소'];
  const chosen = { bno: '사업자등록번호', name: '상호', address: '주소' };
  const rows: BatchRowInput[] = [
    { rowId: 1, bnoRaw: '124-81-00998', bno: '1248100998', valid: true, name: '(주)한빛', address: '서울 강남구 테헤란로 152 3층',
      cells: { 번호: '1', 사업자등록번호: ' 124-81-00998 ', 상호: '(주)한빛  ', 주소: '서울 강남구 테헤란로 152 3층' } },
    // a number that fails its check digit: its text is its cell's; no name, a blank address cell
    { rowId: 2, bnoRaw: '12-34', bno: null, valid: false, name: null, address: null, cells: { 번호: '2', 사업자등록번호: '12-34', 상호: '', 주소: '   ' } },
    // fields that are not their cells as written (a reader that cleaned them) stay text
    { rowId: 3, bnoRaw: '2208162517', bno: '2208162517', valid: true, name: '두리', address: '부산', cells: { 번호: '3', 사업자등록번호: '220-81-62517', 상호: '두리물산', 주소: '부산광역시' } },
    // a row read before the address column was there
    { rowId: 4, bnoRaw: '1248100998', bno: '1248100998', valid: true, name: '한빛', address: null, cells: { 번호: '4', 사업자등록번호: '1248100998', 상호: '한빛' } },
  ];
  const text = encodeRows(rows, columns, chosen);
  assert.deepEqual(decodeRows(text, columns), rows);
  assert.equal(text.split('(주)한빛').length - 1, 1, 'the name is written once, as its cell');
  assert.equal(text.split('테헤란로').length - 1, 1);
  assert.ok(text.includes('"두리"') && text.includes('"부산"'));
  assert.ok(text.length < encodeRows(rows, columns).length);
  // labels read the number as written of a row without a valid one
  const facts = rowFactsOf({ chunkNo: 1, firstRow: 1, lastRow: 4, rows: text, columns: JSON.stringify(columns), output: null });
  assert.deepEqual(facts.map((f) => f.bno), ['1248100998', '12-34', '2208162517', '1248100998']);
  // chunks written before: every field as text
  const before = JSON.stringify(rows.map((r) => [r.rowId, r.bnoRaw, r.bno, r.valid, r.name, r.address, columns.slice(0, Object.keys(r.cells).length).map((c) => r.cells[c] ?? '')]));
  assert.deepEqual(decodeRows(before, columns), rows);
});

test("labels read a chunk's scored rows the same from its facts as from its output (chunks from before facts were kept)", () => {
  const rows: BatchRowInput[] = [
    { rowId: 11, bnoRaw: '100-00-00001', bno: '1000000001', valid: true, name: '가', address: '서울', cells: {} },
    { rowId: 12, bnoRaw: '1000000002', bno: '1000000002', valid: true, name: null, address: null, cells: {} },
    { rowId: 13, bnoRaw: '12-34', bno: null, valid: false, name: '다', address: null, cells: {} },
  ];
  const output: ChunkOutput = {
    answers: new Map([['1000000001', answer('1000000001')], ['1000000002', answer('1000000002')]]),
    scored: new Map([
      [11, { result: { b_no: '1000000001', model_version: 'global-7' }, features: { missing_unit: 1 }, addressKey: 'bld_1' }],
      [13, { result: { b_no: '12-34', model_version: 'global-7' }, features: null, addressKey: null }],
    ]),
  };
  const stored = { chunkNo: 1, firstRow: 11, lastRow: 13, rows: encodeRows(rows, []), columns: '[]' };
  const fromFacts = rowFactsOf({ ...stored, output: null, facts: encodeFacts(output), processed: true });
  const fromOutput = rowFactsOf({ ...stored, output: encodeOutput(output) });
  assert.deepEqual(fromFacts, fromOutput);
  assert.deepEqual(fromFacts, [
    { rowId: 11, bno: '1000000001', processed: true, addressKey: 'bld_1', modelVersion: 'global-7', features: { missing_unit: 1 } },
    { rowId: 12, bno: '1000000002', processed: true, addressKey: null, modelVersion: null, features: {} },
    { rowId: 13, bno: '12-34', processed: true, addressKey: null, modelVersion: 'global-7', features: {} },
  ]);
  assert.equal(rowFactsOf({ ...stored, output: null })[0]!.processed, false);
  // every row scored: the facts alone answer, and the same
  output.scored.set(12, { result: { b_no: '1000000002', model_version: 'global-7' }, features: {}, addressKey: 'bld_2' });
  const all = rowFactsOf({ ...stored, rows: '"not read"', output: null, facts: encodeFacts(output), processed: true });
  assert.deepEqual(all, rowFactsOf({ ...stored, output: encodeOutput(output) }));
  assert.equal(all[1]!.addressKey, 'bld_2');
});

test('a compact scored row keeps what its assessment added; its features and number go to the facts', () => {
  const output: ChunkOutput = {
    answers: new Map([['1000000001', answer('1000000001')]]),
    scored: new Map<number, ScoredRow>([
      [1, { result: { bounce_prob: 0.1, grade: 'A', model_version: 'm1', address: null }, over: true, bno: '1000000001', features: { a: 1 }, addressKey: 'k' }],
      // kept whole, as chunks processed before compact rows were
      [2, { result: { b_no: '1000000001', grade: 'B', model_version: 'm0' }, features: { b: 1 }, addressKey: null }],
    ]),
  };
  const back = decodeOutput(encodeOutput(output));
  assert.deepEqual(back.scored.get(1), { result: { bounce_prob: 0.1, grade: 'A', model_version: 'm1', address: null }, over: true, features: null, addressKey: null });
  assert.deepEqual(back.scored.get(2), output.scored.get(2));
  assert.deepEqual(JSON.parse(encodeFacts(output)!), { features: [], rows: [[1, '1000000001', 'k', 'm1', { a: 1 }], [2, '1000000001', null, 'm0', { b: 1 }]] });
});

/** A judgement as KeptChunk lists it. */
const judgement = (prob: number, grade: string, features: string) => ({ judged: JSON.stringify([prob, grade, 'send', [`[baseline -3.48] ${grade}`], 'm2']), features, grade, modelVersion: 'm2' });

test('rows assessed as a chunk keep each shared judgement once and read back whole; chunks kept with the whole assessment per row still read', () => {
  const report = ['exact', [], 1, false, false, false, false, 'bld_1', '서울 종로구 세종로 1', null];
  const output: ChunkOutput = {
    answers: new Map([['1000000001', answer('1000000001')], ['1000000002', answer('1000000002')]]),
    scored: new Map(),
    judgements: [judgement(0.03, 'A', '{"a":1}'), judgement(0.4, 'D', '{"b":1}')],
    assessed: new Map([
      [1, { judgement: 1, own: JSON.stringify(['03000', '서울 종로구 세종대로 1', report]), bno: '1000000001', addressKey: 'bld_1' }],
      [2, { judgement: 0, own: JSON.stringify([null, null, null, { status: 'match' }]), bno: '1000000002', addressKey: null }],
      [3, { judgement: 1, own: JSON.stringify([null, null, null]), bno: '1000000001', addressKey: 'x' }],
    ]),
  };
  const text = encodeOutput(output);
  assert.equal(text.split('[baseline -3.48] D').length - 1, 1, 'a judgement two rows share is written once');
  const back = decodeOutput(text);
  const r1 = back.scored.get(1)!;
  assert.equal(JSON.stringify(r1.result), JSON.stringify({
    bounce_prob: 0.4, grade: 'D', action: 'send', fixed_zipcode: '03000', fixed_address: '서울 종로구 세종대로 1', reasons: ['[baseline -3.48] D'], model_version: 'm2',
    address: { quality: 'exact', changes: [], candidates: 1, missing_building_number: false, missing_unit: false, zip_mismatch: false, outdated_zip: false, building_id: 'bld_1', jibun_address: '서울 종로구 세종로 1', reference: null },
  }));
  assert.equal(r1.over, true);
  assert.deepEqual(back.scored.get(2)!.result.validation, { status: 'match' });
  assert.equal(back.scored.get(3)!.result.address, null);
  // rows of one judgement do not share its reasons: one row's result changed leaves the other's
  assert.notEqual(back.scored.get(1)!.result.reasons, back.scored.get(3)!.result.reasons);
  // the facts name each row's judgement's features, written once
  assert.deepEqual(JSON.parse(encodeFacts(output)!), { features: [{ a: 1 }, { b: 1 }], rows: [[1, '1000000001', 'bld_1', 'm2', 1], [2, '1000000002', null, 'm2', 0], [3, '1000000001', 'x', 'm2', 1]] });
  const rows: BatchRowInput[] = [1, 2, 3].map((rowId) => ({ rowId, bnoRaw: '', bno: null, valid: false, name: '가', address: null, cells: {} }));
  const stored = { chunkNo: 1, firstRow: 1, lastRow: 3, rows: encodeRows(rows, []), columns: '[]', processed: true };
  const facts = rowFactsOf({ ...stored, output: null, facts: encodeFacts(output) });
  assert.deepEqual(facts.map((f) => [f.rowId, f.bno, f.addressKey, f.modelVersion, f.features]), [[1, '1000000001', 'bld_1', 'm2', { b: 1 }], [2, '1000000002', null, 'm2', { a: 1 }], [3, '1000000001', 'x', 'm2', { b: 1 }]]);
  assert.notEqual(facts[0]!.features, facts[2]!.features, 'rows of one judgement do not share its features object');
  // facts as kept before 2026-11-27: a bare list, the features written out per row
  const factsBefore = rowFactsOf({ ...stored, output: null, facts: '[[1,"1000000001","bld_1","m2",{"b":1}],[2,"1000000002",null,"m2",{"a":1}],[3,"1000000001","x","m2",null]]' });
  assert.deepEqual(factsBefore.map((f) => f.features), [{ b: 1 }, { a: 1 }, {}]);
  // as chunks processed before 2026-11-27 kept them: the whole assessment per row
  const before = `{"numbers":[],"refs":[],"distinct":[],"scored":[[7,{"bounce_prob":0.5,"grade":"D","address":null},1]]}`;
  assert.deepEqual(decodeOutput(before).scored.get(7), { result: { bounce_prob: 0.5, grade: 'D', address: null }, over: true, features: null, addressKey: null });
});
