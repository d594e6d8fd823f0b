// XLSX object bombs: a few hundred KB of zip whose parts hold millions of elements, each of which
// a parser would build an object for. Each is read in a parsing thread whose heap is only 64 MB,
// and must be refused by counting (the error names the element), not by running out of memory.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ParserPool } from './isolated-rows.ts';
import { buildZip, fileError, inlineRow, upload, xlsxWithRows, type ZipPart } from './test-fixtures.ts';
import { ElementCounter } from './xlsx-elements.ts';

const T = { timeout: 60_000 };
const FLOOD = 5_000_000;
const pool = new ParserPool({ heapMb: 64 });
after(() => pool.close());

function* flood(head: string, element: string, tail: string, n = FLOOD): Generator<string> {
  yield head;
  const block = element.repeat(10_000);
  for (let i = 0; i < n; i += 10_000) yield block;
  yield tail;
}

const header = () => [inlineRow(1, ['사업자등록번호', '상호']), inlineRow(2, ['1248100998', '한빛'])];
const part = (name: string, content: () => Iterable<string>): ZipPart => ({ name, content });
const SST_HEAD = '<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';
const STYLES_HEAD = '<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">';

const bombs: [string, () => Promise<Buffer>, RegExp][] = [
  ['a shared string of millions of empty runs', () => xlsxWithRows(header, [part('xl/sharedStrings.xml', () => flood(`${SST_HEAD}<si>`, '<r/>', '</si></sst>'))]), /<r>/],
  ['millions of cell formats', () => xlsxWithRows(header, [part('xl/styles.xml', () => flood(`${STYLES_HEAD}<cellXfs>`, '<xf/>', '</cellXfs></styleSheet>'))]), /<xf>/],
  ['millions of number formats', () => xlsxWithRows(header, [part('xl/styles.xml', () => flood(`${STYLES_HEAD}<numFmts>`, '<numFmt numFmtId="200" formatCode="0"/>', '</numFmts></styleSheet>', 100_000))]), /<numFmt>/],
  ['millions of unknown elements in the styles', () => xlsxWithRows(header, [part('xl/styles.xml', () => flood(STYLES_HEAD, '<x/>', '</styleSheet>'))]), /요소/],
  [
    'millions of column definitions in a sheet',
    () => buildZip([
      { name: 'xl/workbook.xml', content: () => ['<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'] },
      { name: 'xl/_rels/workbook.xml.rels', content: () => ['<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x" Target="worksheets/sheet1.xml"/></Relationships>'] },
      { name: 'xl/worksheets/sheet1.xml', content: () => flood('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><cols>', '<col min="1" max="1"/>', `</cols><sheetData>${header().join('')}</sheetData></worksheet>`) },
    ]),
    /<col>/,
  ],
  ['millions of empty cells in one row', () => xlsxWithRows(function* () {
    yield* header();
    yield* flood('<row r="3">', '<c r="B3"/>', '</row>');
  }), /<row> 하나 안의 <c>/],
  ['millions of runs in one inline string', () => xlsxWithRows(function* () {
    yield* header();
    yield* flood('<row r="3"><c r="B3" t="inlineStr"><is>', '<r/>', '</is></c></row>');
  }), /<c> 하나 안의 <r>/],
  ['millions of sheets in the workbook', () => buildZip([
    { name: 'xl/workbook.xml', content: () => flood('<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheets>', '<sheet name="S" sheetId="1"/>', '</sheets></workbook>', 1_000_000) },
  ]), /<sheet>/],
  ['millions of relationships', () => buildZip([
    { name: 'xl/_rels/workbook.xml.rels', content: () => flood('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">', '<Relationship Id="r" Type="x" Target="y"/>', '</Relationships>', 1_000_000) },
  ]), /<Relationship>/],
];

for (const [name, make, element] of bombs) {
  test(`refused by counting, in a 64 MB thread: ${name}`, T, async () => {
    const zip = await make();
    assert.ok(zip.length < 2 * 1024 * 1024, `the bomb is ${zip.length} bytes`);
    const opened = pool.open(upload(zip, 65536), { maxRows: 100 });
    const err = await fileError(opened.then(async (o) => {
      for await (const _ of o.rows) continue;
    }));
    assert.equal(err.code, 'too_large', err.message);
    assert.equal(err.status, 413);
    assert.match(err.message, element);
    assert.equal(err.details.limit_mb, undefined, 'refused by its count, not by running out of memory');
  });
}

test('millions of empty shared strings: 413, by their count or by the thread\'s memory, whichever comes first', T, async () => {
  // a shared string is kept until the sheet is read, so their number is bounded by memory as
  // much as by count: past what BATCH_PARSE_HEAP_MB holds, the thread's limit refuses the file
  const zip = await xlsxWithRows(header, [part('xl/sharedStrings.xml', () => flood(SST_HEAD, '<si/>', '</sst>', 12_000_000))]);
  const err = await fileError(pool.open(upload(zip, 65536), { maxRows: 100 }).then(async (o) => {
    for await (const _ of o.rows) continue;
  }));
  assert.equal(err.code, 'too_large', err.message);
  const rows = await pool.open(upload(await xlsxWithRows(header), 65536), { maxRows: 100 });
  let n = 0;
  for await (const _ of rows.rows) n++;
  assert.equal(n, 1, 'the next file is read');
});

test('a document type declaration (entities) is refused before any parser sees it', T, async () => {
  const zip = await xlsxWithRows(header, [part('xl/sharedStrings.xml', () => [`<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">]>${SST_HEAD}<si><t>&a;</t></si></sst>`])]);
  const err = await fileError(pool.open(upload(zip, 65536), { maxRows: 100 }).then(async (o) => {
    for await (const _ of o.rows) continue;
  }));
  assert.equal(err.code, 'unreadable');
});

test('element names cut at a chunk boundary are still counted; closing tags, comments and declarations are not elements', () => {
  const counter = new ElementCounter('sharedStrings');
  const text = `<si>${'<r><t>a</t></r>'.repeat(32_767)}</si><si>`;
  // fed in pieces of 7 characters, so names are split everywhere
  for (let i = 0; i < text.length; i += 7) counter.feed(text.slice(i, i + 7));
  counter.feed('<!-- c --><?pi?></si>');
  const over = new ElementCounter('sharedStrings');
  assert.throws(() => {
    const t = `<si>${'<r/>'.repeat(32_768)}`;
    for (let i = 0; i < t.length; i += 5) over.feed(t.slice(i, i + 5));
  }, /<si> 하나 안의 <r>/);
});
