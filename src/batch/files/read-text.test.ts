import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Readable } from 'node:stream';
import iconv from 'iconv-lite';
import { openRows, readRows } from './read-rows.ts';
import { collect, fileError, upload } from './test-fixtures.ts';

const T = { timeout: 10_000 };

test('a CP949 CSV from Korean Excel, hyphenated numbers, read in chunks that split characters', T, async () => {
  const text =
    '사업자등록번호,상호,주소\r\n' +
    '124-81-00998,"(주)한빛상사, 본점",서울특별시 강남구 테헤란로 152\r\n' +
    '220-81-62517,두리물산,"부산광역시 해운대구 센텀중앙로 79, 3층"\r\n' +
    '1234,잘못된번호,\r\n';
  const opened = await openRows(upload(iconv.encode(text, 'cp949'), 5), { filename: '거래처.csv', maxRows: 100 });
  assert.equal(opened.kind, 'csv');
  assert.equal(opened.encoding, 'cp949');
  assert.equal(opened.delimiter, ',');
  assert.deepEqual(opened.headers, ['사업자등록번호', '상호', '주소']);
  assert.deepEqual(opened.chosen, { bno: '사업자등록번호', name: '상호', address: '주소', representative: null, opened: null });
  const rows = await collect(opened.rows);
  assert.deepEqual(rows[0], {
    rowId: 1,
    bnoRaw: '124-81-00998',
    bno: '1248100998',
    name: '(주)한빛상사, 본점',
    address: '서울특별시 강남구 테헤란로 152',
    cells: { 사업자등록번호: '124-81-00998', 상호: '(주)한빛상사, 본점', 주소: '서울특별시 강남구 테헤란로 152' },
  });
  assert.equal(rows[1]!.address, '부산광역시 해운대구 센텀중앙로 79, 3층');
  assert.deepEqual([rows[2]!.bno, rows[2]!.bnoRaw, rows[2]!.address], [null, '1234', null]);
});

test('a UTF-8 CSV with BOM: blank lines are skipped and not counted in rowId', T, async () => {
  const text = '\uFEFF사업자번호,업체명,사업장 주소\n\n1248100998,한빛,서울\n,,\n   \n2208162517,두리,부산\n';
  const opened = await openRows(upload(text, 3), { maxRows: 10 });
  assert.equal(opened.encoding, 'utf-8');
  assert.deepEqual(opened.headers, ['사업자번호', '업체명', '사업장 주소']);
  const rows = await collect(opened.rows);
  assert.deepEqual(rows.map((r) => [r.rowId, r.bno, r.name]), [[1, '1248100998', '한빛'], [2, '2208162517', '두리']]);
});

test('a TSV and a semicolon CSV', T, async () => {
  const tsv = iconv.encode('순번\t사업자등록번호\t상호\r\n1\t124 81 00998\t한빛\r\n', 'cp949');
  const t = await openRows(upload(tsv), { filename: '목록.txt', maxRows: 10 });
  assert.equal(t.delimiter, '\t');
  assert.deepEqual((await collect(t.rows)).map((r) => [r.bno, r.name, r.cells['순번']]), [['1248100998', '한빛', '1']]);

  const semi = '"b_no";"name";"address"\n"124-81-00998";"한빛, 본점";"서울; 강남"\n';
  const s = await openRows(upload(semi), { maxRows: 10 });
  assert.equal(s.delimiter, ';');
  assert.deepEqual((await collect(s.rows)).map((r) => [r.bno, r.name, r.address]), [['1248100998', '한빛, 본점', '서울; 강남']]);
});

test('UTF-16 text as Excel saves "유니코드 텍스트"', T, async () => {
  const text = '사업자등록번호\t상호\r\n124-81-00998\t한빛\r\n';
  const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const opened = await openRows(upload(bytes, 3), { filename: '거래처.txt', maxRows: 10 });
  assert.deepEqual([opened.encoding, opened.delimiter], ['utf-16le', '\t']);
  assert.deepEqual((await collect(opened.rows)).map((r) => [r.bno, r.name]), [['1248100998', '한빛']]);
});

test('title rows above the header, a wider data row, repeated and empty headers', T, async () => {
  const text = '거래처 현황 (2024년 3월),,,\n\n사업자등록번호,비고,비고,\n124-81-00998,a,b,c,d\n';
  const opened = await openRows(upload(text), { maxRows: 10 });
  const rows = await collect(opened.rows);
  assert.deepEqual(opened.headers, ['사업자등록번호', '비고', '비고 (2)', '열4', '열5']);
  assert.deepEqual(rows[0]!.cells, { 사업자등록번호: '124-81-00998', 비고: 'a', '비고 (2)': 'b', 열4: 'c', 열5: 'd' });
  assert.equal(rows[0]!.rowId, 1);
});

test('columns overridden by index and by header text', T, async () => {
  const text = '번호,메모,위치\n124-81-00998,한빛,서울\n';
  const byIndex = await collect(readRows(upload(text), { maxRows: 10, columns: { bnoColumn: 1, nameColumn: 2, addressColumn: 3 } }));
  assert.deepEqual(byIndex.map((r) => [r.bno, r.name, r.address]), [['1248100998', '한빛', '서울']]);
  const opened = await openRows(upload(text), { maxRows: 10, columns: { bnoColumn: '번호', addressColumn: '위치' } });
  assert.deepEqual(opened.chosen, { bno: '번호', name: null, address: '위치', representative: null, opened: null });
  assert.equal(opened.columns.bno.by, 'override');
  await opened.close();
});

test('long cells are cut to maxCellChars', T, async () => {
  const rows = await collect(readRows(upload(`b_no,name\n1248100998,${'가'.repeat(50)}\n`), { maxRows: 10, maxCellChars: 10 }));
  assert.equal(rows[0]!.name, '가'.repeat(10));
});


test('no number column: the message names the headers it saw', T, async () => {
  const err = await fileError(openRows(upload('고객명,전화번호,주소\n한빛,02-123-4567,서울\n'), { maxRows: 10 }));
  assert.equal(err.code, 'no_number_column');
  assert.equal(err.status, 400);
  assert.match(err.message, /"고객명", "전화번호", "주소"/);
});

test('an empty file and a header-only file are both "empty"', T, async () => {
  assert.equal((await fileError(openRows(upload(''), { maxRows: 10 }))).code, 'empty');
  assert.equal((await fileError(openRows(upload('\uFEFF\r\n\r\n'), { maxRows: 10 }))).code, 'empty');
  const headerOnly = await fileError(openRows(upload('사업자등록번호,상호\r\n,\r\n'), { maxRows: 10 }));
  assert.equal(headerOnly.code, 'empty');
  assert.equal(headerOnly.details.headerOnly, true);
});

test('too many rows stops at the first row past the limit without reading on', T, async () => {
  let produced = 0;
  function* endless() {
    yield Buffer.from('사업자등록번호,상호\n');
    for (;;) {
      produced++;
      yield Buffer.from('124-81-00998,한빛\n'.repeat(100));
    }
  }
  const input = Readable.from(endless(), { objectMode: false });
  let seen = 0;
  const err = await fileError(
    (async () => {
      for await (const _ of readRows(input, { maxRows: 1000 })) seen++;
    })(),
  );
  assert.equal(err.code, 'too_many_rows');
  assert.equal(err.status, 413);
  assert.equal(seen, 1000);
  // only what the stream buffers hold was read ahead (about 300 KB here), not the endless rest
  assert.ok(produced < 500, `read ${produced} chunks`);
  assert.ok(input.destroyed);
});

test('an unclosed quote does not swallow the file into memory', T, async () => {
  const text = `b_no,name\n1248100998,"한빛\n${'x,y\n'.repeat(100_000)}`;
  const err = await fileError(collect(readRows(upload(text, 64 * 1024), { maxRows: 10, maxRecordChars: 10_000 })));
  assert.equal(err.code, 'too_large');
});

test('binary garbage is unreadable; bytes that are neither UTF-8 nor CP949 give no_number_column, not a crash', T, async () => {
  const garbage = Buffer.alloc(10_000);
  let x = 12345;
  for (let i = 0; i < garbage.length; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    garbage[i] = x >> 16;
  }
  assert.equal((await fileError(openRows(upload(garbage, 1000), { maxRows: 10 }))).code, 'unreadable');

  // printable high bytes only: invalid UTF-8, and in CP949 partly unmapped
  const broken = Buffer.from([0xff, 0xfe, 0x20, 0x81, 0x20, 0xc8, 0xff, 0x2c, 0x80, 0x41, 0x0a, 0xa4, 0xff, 0x2c, 0x31, 0x0a].slice(2));
  const err = await fileError(openRows(upload(broken), { maxRows: 10 }));
  assert.equal(err.code, 'no_number_column');
});

test('an abort while the upload stalls ends the read with the abort reason', T, async () => {
  // stalled before the header is complete
  const early = new PassThrough();
  early.write('사업자등록번호,상호\n124-81-00998,한빛\n');
  const c1 = new AbortController();
  setTimeout(() => c1.abort(new Error('client went away')), 20);
  await assert.rejects(openRows(early, { maxRows: 10, signal: c1.signal }), /client went away/);
  assert.ok(early.destroyed);

  // stalled in the middle of the rows
  const late = new PassThrough();
  late.write(`사업자등록번호,상호\n${'124-81-00998,한빛\n'.repeat(5000)}`);
  const c2 = new AbortController();
  const opened = await openRows(late, { maxRows: 100_000, signal: c2.signal });
  let seen = 0;
  await assert.rejects(
    (async () => {
      // csv-parse holds the last record until it sees what follows, so abort once most have arrived
      for await (const _ of opened.rows) if (++seen === 4000) setTimeout(() => c2.abort(new Error('job cancelled')), 20);
    })(),
    /job cancelled/,
  );
  assert.ok(seen >= 4000 && seen <= 5000);
  assert.ok(late.destroyed);
});

test('UTF-8 read as bytes: characters split across chunks, a BOM, and a broken byte past the sampled head read as Node decodes them', T, async () => {
  const head = `\uFEFF사업자등록번호,상호,주소\n${'1248100998,"한빛상사, 본점",서울특별시 강남구 테헤란로 152 3층\n'.repeat(3_000)}`;
  // one byte that is not UTF-8 in the middle of a name, far past what encoding detection samples
  const bytes = Buffer.concat([Buffer.from(`${head}2208162517,두리`), Buffer.from([0xc0]), Buffer.from('물산,부산 "해운대" 1\n')]);
  for (const size of [1, 2, 7, 64 * 1024]) {
    const opened = await openRows(upload(bytes, size), { maxRows: 10_000 });
    assert.equal(opened.encoding, 'utf-8');
    assert.deepEqual(opened.headers, ['사업자등록번호', '상호', '주소']);
    const rows = await collect(opened.rows);
    assert.equal(rows.length, 3_001);
    assert.deepEqual(rows[2_999]!.cells, { 사업자등록번호: '1248100998', 상호: '한빛상사, 본점', 주소: '서울특별시 강남구 테헤란로 152 3층' });
    assert.deepEqual(rows[3_000]!.cells, { 사업자등록번호: '2208162517', 상호: '두리\uFFFD물산', 주소: '부산 "해운대" 1' });
  }
});
