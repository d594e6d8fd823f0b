import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { openRows, readRows } from './read-rows.ts';
import { buildZip, collect, fileError, inlineRow, upload, xlsxWithRows } from './test-fixtures.ts';

const T = { timeout: 20_000 };


/** A workbook as an office keeps it: a notes sheet first, the list on the second, numbers typed as numbers. */
async function officeWorkbook(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const notes = book.addWorksheet('안내');
  notes.addRow(['거래처 목록입니다. 두 번째 시트를 보세요.']);
  const list = book.addWorksheet('거래처');
  list.addRow(['거래처 현황']);
  list.addRow([]);
  list.addRow(['사업자등록번호', '상호', '주소', '등록일', '거래액', '홈페이지']);
  list.addRow([1248100998, '(주)한빛상사', '서울특별시 강남구 테헤란로 152', new Date(Date.UTC(2023, 0, 15)), 1500000, { text: '한빛', hyperlink: 'https://example.com' }]);
  list.addRow(["'220-81-62517", { richText: [{ text: '두리', font: { bold: true } }, { text: '물산' }] }, { formula: 'CONCAT("부산 ","해운대구")', result: '부산 해운대구' }, null, { formula: 'E4*2', result: 3000000 }]);
  list.addRow([]);
  list.addRow([123456789, '앞자리 0이 빠진 번호', null, null, 0.1 + 0.2]);
  const hidden = book.addWorksheet('숨김');
  hidden.state = 'hidden';
  hidden.addRow(['b_no']);
  hidden.addRow(['1248100998']);
  return Buffer.from(await book.xlsx.writeBuffer());
}

test('an XLSX with numbers typed as numbers, the list on the second sheet chosen by name', T, async () => {
  const opened = await openRows(upload(await officeWorkbook(), 4096), { filename: '거래처.xlsx', sheet: '거래처', maxRows: 10 });
  assert.equal(opened.kind, 'xlsx');
  assert.equal(opened.sheet, '거래처');
  assert.deepEqual(opened.headers, ['사업자등록번호', '상호', '주소', '등록일', '거래액', '홈페이지']);
  const rows = await collect(opened.rows);
  assert.equal(rows.length, 3);
  assert.deepEqual(rows[0], {
    rowId: 1,
    bnoRaw: '1248100998',
    bno: '1248100998',
    name: '(주)한빛상사',
    address: '서울특별시 강남구 테헤란로 152',
    cells: { 사업자등록번호: '1248100998', 상호: '(주)한빛상사', 주소: '서울특별시 강남구 테헤란로 152', 등록일: '2023-01-15', 거래액: '1500000', 홈페이지: '한빛' },
  });
  // a leading apostrophe typed into the cell, rich text, and formulas read as their cached values
  assert.deepEqual([rows[1]!.bno, rows[1]!.bnoRaw, rows[1]!.name, rows[1]!.address, rows[1]!.cells['거래액']], ['2208162517', "'220-81-62517", '두리물산', '부산 해운대구', '3000000']);
  // a number that lost its leading zero gets it back; floats show as Excel shows them
  assert.deepEqual([rows[2]!.rowId, rows[2]!.bno, rows[2]!.cells['거래액']], [3, '0123456789', '0.3']);
});

test('sheets by position among the visible ones, the default, and a missing one', T, async () => {
  const book = await officeWorkbook();
  const second = await openRows(upload(book, 65536), { sheet: 2, maxRows: 10 });
  assert.equal(second.sheet, '거래처');
  await second.close();
  // as a form field sends it
  const fromForm = await openRows(upload(book, 65536), { sheet: '2', maxRows: 10 });
  assert.equal(fromForm.sheet, '거래처');
  await fromForm.close();

  // none asked for: the first visible sheet that holds a number column, said to be chosen so
  const chosen = await openRows(upload(book, 65536), { maxRows: 10 });
  assert.deepEqual([chosen.sheet, chosen.sheets, chosen.sheetByContent], ['거래처', ['안내', '거래처'], true]);
  assert.equal((await collect(chosen.rows))[0]!.bno, '1248100998');
  // asked for, the notes sheet is read and refused, naming every sheet
  const first = await fileError(openRows(upload(book, 65536), { sheet: 1, maxRows: 10 }));
  assert.equal(first.code, 'no_number_column');
  assert.match(first.message, /읽은 시트: "안내"; 파일의 시트: "안내", "거래처"/);

  const missing = await fileError(openRows(upload(book, 65536), { sheet: 'Sheet1', maxRows: 10 }));
  assert.equal(missing.code, 'bad_sheet');
  assert.match(missing.message, /"안내", "거래처"/);
  assert.equal((await fileError(openRows(upload(book, 65536), { sheet: 3, maxRows: 10 }))).code, 'bad_sheet');
  // a hidden sheet can still be asked for by name
  const hidden = await collect(readRows(upload(book, 65536), { sheet: '숨김', maxRows: 10 }));
  assert.equal(hidden[0]!.bno, '1248100998');
});

test('Korean text is intact across chunk boundaries in a large sheet (exceljs alone splits characters)', T, async () => {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: true });
  const sheet = book.addWorksheet('목록');
  sheet.addRow(['사업자번호', '업체명', '사업장 주소']).commit();
  for (let i = 0; i < 20_000; i++) sheet.addRow([1248100998, `가나다라마바사아자차카타파하${i}`, `서울특별시 강남구 테헤란로 ${i}길`]).commit();
  sheet.commit();
  await book.commit();
  let broken = 0;
  let n = 0;
  for await (const row of readRows(upload(Buffer.concat(chunks), 65536), { maxRows: 20_000 })) {
    if (row.name !== `가나다라마바사아자차카타파하${n}` || row.address !== `서울특별시 강남구 테헤란로 ${n}길`) broken++;
    n++;
  }
  assert.deepEqual([n, broken], [20_000, 0]);
});

const SHARED_STRING_ROWS = () => ['<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>', '<row r="2"><c r="A2"><v>1248100998</v></c><c r="B2" t="s"><v>2</v></c></row>'];

test('shared strings before the sheet: the sheet is read straight from the zip, nothing spooled', T, async () => {
  const shared = '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>사업자등록번호</t></si><si><t>상호</t></si><si><t>한빛</t></si></sst>';
  const zip = await xlsxWithRows(SHARED_STRING_ROWS, [{ name: 'xl/sharedStrings.xml', content: () => [shared] }]);
  const dir = await mkdtemp(path.join(tmpdir(), 'bizcheck-xlsx-test-'));
  try {
    const opened = await openRows(upload(zip), { maxRows: 10, tmpDir: dir });
    assert.deepEqual(await readdir(dir), []);
    assert.deepEqual((await collect(opened.rows)).map((r) => [r.bno, r.name]), [['1248100998', '한빛']]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a zip bomb sheet is stopped at the inflated-size limit', T, async () => {
  const big = inlineRow(2, ['1248100998', '한빛']).repeat(1000);
  const zip = await xlsxWithRows(function* () {
    yield inlineRow(1, ['사업자등록번호', '상호']);
    // about 30 MB of sheet XML
    for (let i = 0; i < 500; i++) yield big;
  });
  assert.ok(zip.length < 1024 * 1024, `bomb is ${zip.length} bytes`);
  const err = await fileError(collect(readRows(upload(zip, 65536), { maxRows: 10_000_000, maxInflatedBytes: 8 * 1024 * 1024 })));
  assert.equal(err.code, 'too_large');
  assert.equal(err.status, 413);
});

test('a part inflating past the default limit (256 MB) is stopped while draining, not only in sheets', { timeout: 60_000 }, async () => {
  const zeros = Buffer.alloc(1024 * 1024);
  const zip = await xlsxWithRows(() => [inlineRow(1, ['b_no']), inlineRow(2, ['1248100998'])], [
    {
      name: 'xl/media/image1.png',
      content: function* () {
        for (let i = 0; i < 300; i++) yield zeros;
      },
    },
  ]);
  assert.ok(zip.length < 1024 * 1024, `bomb is ${zip.length} bytes`);
  const err = await fileError(openRows(upload(zip, 65536), { maxRows: 10 }));
  assert.equal(err.code, 'too_large');
});

test('a million empty but formatted rows are stopped at the blank-row limit', T, async () => {
  const zip = await xlsxWithRows(function* () {
    yield inlineRow(1, ['사업자등록번호', '상호']);
    yield inlineRow(2, ['1248100998', '한빛']);
    let batch = '';
    for (let r = 3; r <= 1_048_576; r++) {
      batch += `<row r="${r}" s="1" customFormat="1" ht="15"/>`;
      if (batch.length > 64 * 1024) {
        yield batch;
        batch = '';
      }
    }
    yield batch;
  });
  let seen = 0;
  const err = await fileError(
    (async () => {
      for await (const _ of readRows(upload(zip, 65536), { maxRows: 10, maxBlankRows: 50_000 })) seen++;
    })(),
  );
  assert.equal(err.code, 'too_many_rows');
  assert.equal(err.details.blank, true);
  assert.equal(seen, 1);
});

test('too many XLSX rows, a cell far to the right, and files that only look like XLSX', T, async () => {
  const many = await xlsxWithRows(function* () {
    yield inlineRow(1, ['b_no']);
    for (let r = 2; r < 5000; r++) yield inlineRow(r, ['1248100998']);
  });
  assert.equal((await fileError(collect(readRows(upload(many, 65536), { maxRows: 100 })))).code, 'too_many_rows');

  const wide = await xlsxWithRows(() => [inlineRow(1, ['b_no']), '<row r="2"><c r="XFD2" t="inlineStr"><is><t>x</t></is></c></row>']);
  assert.equal((await fileError(collect(readRows(upload(wide), { maxRows: 10 })))).code, 'too_many_columns');

  const truncated = (await officeWorkbook()).subarray(0, 3000);
  assert.equal((await fileError(collect(readRows(upload(truncated), { maxRows: 10 })))).code, 'unreadable');
  const notAWorkbook = await buildZip([{ name: 'readme.txt', content: () => ['사업자등록번호'] }]);
  assert.equal((await fileError(openRows(upload(notAWorkbook), { maxRows: 10 }))).code, 'unreadable');
  const garbage = Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(5000, 0x5a)]);
  assert.equal((await fileError(openRows(upload(garbage), { maxRows: 10 }))).code, 'unreadable');
});

test('a cell longer than Excel allows is refused while inflating; the longest Excel cell, escaped, is read', T, async () => {
  const huge = await xlsxWithRows(function* () {
    yield inlineRow(1, ['b_no', 'name']);
    yield `<row r="2"><c r="A2" t="inlineStr"><is><t>1248100998</t></is></c><c r="B2" t="inlineStr"><is><t>${'가'.repeat(100_000)}</t></is></c></row>`;
  });
  const err = await fileError(collect(readRows(upload(huge, 65536), { maxRows: 10 })));
  assert.equal(err.code, 'too_large');
  assert.equal(err.status, 413);
  // 32,767 characters that each need escaping (&amp; is 5 bytes) still fit
  const longest = await xlsxWithRows(function* () {
    yield inlineRow(1, ['b_no', 'name']);
    yield `<row r="2"><c r="A2" t="inlineStr"><is><t>1248100998</t></is></c><c r="B2" t="inlineStr"><is><t>${'&amp;'.repeat(32_767)}</t></is></c></row>`;
  });
  const rows = await collect(readRows(upload(longest, 65536), { maxRows: 10 }));
  assert.equal(rows.length, 1);
  // (names are cut to a sane length when stored; the cell itself was read whole)
  assert.ok(/^&+$/.test(rows[0]!.name ?? ''), 'the escaped cell read as ampersands');
});

const sharedWith = (extra: string) => `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>사업자등록번호</t></si><si><t>상호</t></si><si><t>한빛</t></si>${extra}</sst>`;

// the sheet first, as Excel writes it: it must wait on disk for the shared strings
const sheetFirst = (extra = '') => buildZip([
  { name: 'xl/workbook.xml', content: () => ['<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'] },
  { name: 'xl/_rels/workbook.xml.rels', content: () => ['<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x" Target="worksheets/sheet1.xml"/></Relationships>'] },
  { name: 'xl/worksheets/sheet1.xml', content: () => ['<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>', ...SHARED_STRING_ROWS(), '</sheetData></worksheet>'] },
  { name: 'xl/sharedStrings.xml', content: () => [sharedWith(extra)] },
]);

test('a sheet stored before its shared strings is spooled to a file that is never visible: not while read, not after a refusal', T, async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'bizcheck-xlsx-test-'));
  try {
    const read = await openRows(upload(await sheetFirst(), 64), { maxRows: 10, tmpDir: dir });
    assert.deepEqual(await readdir(dir), []);
    assert.deepEqual((await collect(read.rows)).map((r) => [r.bno, r.name]), [['1248100998', '한빛']]);
    const refused = await fileError(openRows(upload(await sheetFirst(`<si>${'<r/>'.repeat(40_000)}</si>`), 64), { maxRows: 10, tmpDir: dir }));
    assert.equal(refused.code, 'too_large');
    assert.deepEqual(await readdir(dir), []);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
