import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseFromFile } from '../../domain/bizno.ts';
import { isTotalRow, plainNumber, RowBuilder } from './row-builder.ts';
import { rawText, type RawCell } from './cell-text.ts';

test('the quick reading of plain numbers agrees with the general one', () => {
  for (const raw of ['1248100998', '124-81-00998', '0000000000', '124-8100998', '124-81-0099', '12481009989', '124 81 00998', '１２４８１００９９８', "'1248100998", '12a8100998', '124-81-0099x']) {
    const quick = plainNumber(raw);
    if (quick !== null) assert.equal(quick, normaliseFromFile(raw.normalize('NFKC')), raw);
  }
  assert.equal(plainNumber('124-81-00998'), '1248100998');
  assert.equal(plainNumber('1248100998'), '1248100998');
  assert.equal(plainNumber('124 81 00998'), null, 'other forms take the general path');
});

test('rows that total the list, told from customers', () => {
  const totals: RawCell[][] = [['합계', '', 3500], ['', '합 계', '', 3500], ['총 합계:', 12], ['소계(3건)'], ['Grand Total', 99], [19], ['19'], ['1,234'], ['', '', 19, 3000]];
  for (const r of totals) assert.equal(isTotalRow(r, rawText(r[0]).trim(), 2000), true, JSON.stringify(r));
  const customers: RawCell[][] = [['12345', '한빛상사'], ['합계세무회계', '서울'], ['', '주소만'], ['123-45', '']];
  for (const r of customers) assert.equal(isTotalRow(r, rawText(r[0]).trim(), 2000), false, JSON.stringify(r));
  // a count is at most the rows above it: under 40 rows, "12345" is a mistyped number, 19 a count
  assert.equal(isTotalRow(['12345'], '12345', 40), false);
  assert.equal(isTotalRow(['19'], '19', 40), true);
  assert.equal(isTotalRow(['0'], '0', 40), false);
});

test('9-digit numbers are read with the leading zero and counted; a valid number in a 합계 row stays a customer', () => {
  const columns = { bno: { index: 1, header: 'b_no', by: 'recognised' as const }, name: null, address: null, representative: null, opened: null };
  const b = new RowBuilder({ headerRaw: ['b_no', '메모'], columns, limits: { maxRows: 100, maxBlankRows: 10, maxColumns: 10, maxCellChars: 100 } });
  const rows = [['123456789'], [123456789], ['1248100998', '합계'], ['합계', '3']].map((r) => b.build(r));
  assert.deepEqual(rows.map((r) => r?.bno ?? null), ['0123456789', '0123456789', '1248100998', null]);
  assert.deepEqual(rows.map((r) => r?.rowId ?? null), [1, 2, 3, null]);
  assert.deepEqual(b.notes, { totalRows: 1, totalRowTexts: ['합계 3'], paddedNumbers: 2, paddedRows: [1, 2] });
});

test('rows that are not customers are bounded like blank ones', () => {
  const columns = { bno: { index: 1, header: 'b_no', by: 'recognised' as const }, name: null, address: null, representative: null, opened: null };
  const b = new RowBuilder({ headerRaw: ['b_no'], columns, limits: { maxRows: 100, maxBlankRows: 3, maxColumns: 10, maxCellChars: 100 } });
  for (let i = 0; i < 3; i++) assert.equal(b.build(['합계']), null);
  assert.throws(() => b.build(['합계']), /빈 행이나 합계 행이 너무 많습니다/);
});
