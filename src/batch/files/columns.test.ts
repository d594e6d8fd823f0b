import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseColumns, foldLabel } from './columns.ts';

function chosen(headers: string[], overrides = {}) {
  const r = chooseColumns(headers, overrides);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return { bno: r.columns.bno.index, name: r.columns.name?.index ?? null, address: r.columns.address?.index ?? null };
}

test('labels as offices write them are recognised', () => {
  for (const label of ['사업자등록번호', '사업자 등록번호', '사업자번호', '등록번호', 'B_NO', 'biz_no', 'BizNo', 'Business Number', 'business_number', '사업자등록번호(필수)', '*사업자등록번호', '사업자등록번호 *', '사업자\n등록번호', '사업자등록번호 [필수]']) {
    assert.equal(chosen(['순번', label, '비고']).bno, 2, label);
  }
  assert.equal(foldLabel(' 사업장 주소(필수) '), '사업장주소');
  assert.deepEqual(chosen(['No', '거래처명', '사업자번호', '사업장 주소', '대표자']), { bno: 3, name: 2, address: 4 });
  assert.deepEqual(chosen(['b_no', 'Company', 'Addr']), { bno: 1, name: 2, address: 3 });
  assert.deepEqual(chosen(['소재지', '업체명', 'biz_no']), { bno: 3, name: 2, address: 1 });
});

test('a 법인등록번호 (13-digit corporate number) is not taken for the business number', () => {
  const r = chooseColumns(['법인등록번호', '상호']);
  assert.equal(r.ok, false);
});

test('with several candidates the more specific label wins, whatever the order', () => {
  assert.deepEqual(chosen(['등록번호', '상호명', '사업자등록번호', '상호']), { bno: 3, name: 4, address: null });
  assert.deepEqual(chosen(['사업장주소', '주소', 'b_no']), { bno: 3, name: null, address: 2 });
});

test('overrides by 1-based index, by header text, and by a numeric string from a form', () => {
  assert.deepEqual(chosen(['번호', '고객', '위치'], { bnoColumn: 1, nameColumn: '고객', addressColumn: '3' }), { bno: 1, name: 2, address: 3 });
  // an override beats recognition, and recognition does not reuse the overridden column
  assert.deepEqual(chosen(['사업자번호', '메모', '상호'], { bnoColumn: '메모' }), { bno: 2, name: 3, address: null });
  assert.deepEqual(chosen(['사업자 번호', '상호'], { bnoColumn: '사업자번호' }).bno, 1);
});

test('no number column: the error lists the headers seen and the labels recognised', () => {
  const r = chooseColumns(['고객명', '전화', '']);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.equal(r.error.code, 'no_number_column');
  assert.match(r.error.message, /"고객명", "전화"/);
  assert.match(r.error.message, /사업자등록번호/);
  assert.deepEqual(r.error.details.seenHeaders, ['고객명', '전화']);
});

test('an override naming a column that is not there is a bad_column error', () => {
  for (const ref of [0, 4, 1.5, '없는열']) {
    const r = chooseColumns(['a', 'b', 'c'], { bnoColumn: ref });
    assert.equal(r.ok ? 'ok' : r.error.code, 'bad_column', String(ref));
  }
  const r = chooseColumns(['b_no', 'x'], { addressColumn: 9 });
  assert.equal(r.ok ? 'ok' : r.error.code, 'bad_column');
});

function both(headers: string[], overrides = {}) {
  const r = chooseColumns(headers, overrides);
  assert.ok(r.ok, r.ok ? '' : r.error.message);
  return [r.columns.representative?.index ?? null, r.columns.opened?.index ?? null];
}

test('the representative and opening-date columns are recognised as offices label them, or named outright', () => {
  for (const [rep, opened] of [['대표자', '개업일'], ['대표자명', '개업일자'], ['대표자 성명', '개업연월일'], ['대표자(명)', '개업일(자)'], ['P_NM', 'start_dt'], ['CEO', 'Opening Date']]) {
    assert.deepEqual(both(['사업자번호', '상호', rep!, opened!]), [3, 4], `${rep} / ${opened}`);
  }
  assert.deepEqual(both(['사업자번호', '상호', '대표전화', '주소']), [null, null], 'a 대표전화 is not a representative');
  assert.deepEqual(both(['사업자번호', '사장', '창업']), [null, null]);
  assert.deepEqual(both(['사업자번호', '사장', '창업'], { representativeColumn: '사장', openedColumn: 3 }), [2, 3]);
  const missing = chooseColumns(['사업자번호'], { representativeColumn: '대표' });
  assert.ok(!missing.ok && missing.error.code === 'bad_column');
});
