import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openingDate, openingDateFromCell, rowValidation, rowValidationInput } from './validation.ts';

test('an opening date as the API takes it: YYYYMMDD or dashed, a real calendar date', () => {
  assert.equal(openingDate('19960214'), '19960214');
  assert.equal(openingDate('1996-02-14'), '19960214');
  for (const bad of ['19960230', '1996-2-14', '14/02/1996', '', '18991231', '2024-02-30']) assert.equal(openingDate(bad), null, bad);
});

test('an opening date as a customer file holds it', () => {
  const cases: [string, string | null][] = [
    ['1996-02-14', '19960214'], ['19960214', '19960214'], ['1996.02.14', '19960214'], ['1996. 2. 14.', '19960214'], ['1996/2/14', '19960214'],
    ['1996년 2월 14일', '19960214'], ['1996년2월14일', '19960214'], ['1996-02-14 00:00:00', '19960214'], ['１９９６－０２－１４', '19960214'],
    ['35109', '19960214'], ['73050', '20991231'],
    ['1996', null], ['73051', null], ['1996-02-30', null], ['2월 14일', null], ['1996-02-14 09:30:00', null], ['미상', null], ['', null],
  ];
  for (const [cell, want] of cases) assert.equal(openingDateFromCell(cell), want, cell);
});

test('a row asks 진위확인 only with both cells; an unreadable date is said, not sent', () => {
  assert.equal(rowValidationInput('1248100998', '', '19960214'), null);
  assert.equal(rowValidationInput('1248100998', '홍길동', '  '), null);
  assert.equal(rowValidationInput('1248100998', undefined, undefined), null);
  const ask = rowValidationInput('1248100998', ' 홍길동 ', '1996. 2. 14.');
  assert.ok(ask?.kind === 'ask');
  assert.deepEqual([ask.query.b_no, ask.query.start_dt, ask.query.p_nm, ask.query.b_nm], ['1248100998', '19960214', '홍길동', '']);
  const bad = rowValidationInput('1248100998', '홍길동', '작년');
  assert.deepEqual(bad, { kind: 'unreadable_date', p_nm: '홍길동', start_dt: '작년' });
  assert.ok(bad);
  assert.equal(rowValidation(bad, null).status, 'unreadable_date');
  const at = '2026-11-25T00:00:00.000Z';
  assert.deepEqual(rowValidation(ask, { answer: { valid: '01', valid_msg: '', status: null }, source: 'nts', checkedAt: at }), {
    status: 'confirmed', valid: true, valid_code: '01', valid_msg: null, p_nm: '홍길동', start_dt: '19960214', checked_at: at,
  });
  const no = rowValidation(ask, { answer: { valid: '02', valid_msg: '', status: null }, source: 'nts', checkedAt: at });
  assert.deepEqual([no.status, no.valid, no.valid_msg], ['not_confirmed', false, '확인할 수 없습니다.']);
  const none = rowValidation(ask, null, 'NTS did not answer: timeout');
  assert.deepEqual([none.status, none.valid, none.valid_msg, none.checked_at], ['unanswered', null, 'NTS did not answer: timeout', null]);
});
