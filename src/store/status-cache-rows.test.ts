import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecordReader } from './status-cache-rows.ts';

const record = (bno: string, code = '01') => ({
  b_no: bno, b_stt: '계속사업자', b_stt_cd: code, tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '',
  utcc_yn: 'N', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '해당없음', rbf_tax_type_cd: '99',
});

test('records alike but for the number read back equal to JSON.parse, each with its own number and fields', () => {
  const reader = new RecordReader();
  const texts = [record('1248100998'), record('1234567891'), record('2208162517', '03')].map((r) => JSON.stringify(r));
  for (const text of [...texts, ...texts]) {
    const got = reader.read(text);
    assert.deepEqual(got, JSON.parse(text));
    assert.equal(JSON.stringify(got), text, 'the key order survives');
  }
  const a = reader.read(texts[0]!);
  const b = reader.read(texts[1]!);
  assert.notEqual(a, b);
  (a as { b_stt: string }).b_stt = 'changed';
  assert.equal(reader.read(texts[1]!).b_stt, '계속사업자', 'a record handed out is not shared with later reads');
});

test("PostgreSQL's jsonb text (a space after each colon) reads the same", () => {
  const reader = new RecordReader();
  for (const bno of ['1248100998', '1234567891']) {
    const text = `{"b_no": "${bno}", "b_stt": "폐업자", "end_dt": "20240301", "b_stt_cd": "03"}`;
    assert.deepEqual(reader.read(text), JSON.parse(text));
  }
});

test('texts of other shapes fall back to JSON.parse: another first key, an escaped number, a duplicate b_no', () => {
  const reader = new RecordReader();
  for (const text of ['{"b_stt":"계속사업자","b_no":"1248100998"}', '{"b_no":"12\\u003481","b_stt":"x"}', '{"b_no":"1248100998","b_stt":"x","b_no":"9999999999"}']) {
    assert.deepEqual(reader.read(text), JSON.parse(text));
  }
  assert.equal(reader.read('{"b_no":"1111111111","b_stt":"x","b_no":"9999999999"}').b_no, '9999999999');
});
