// `npm run bench:xlsx`: a generated XLSX of BENCH_XLSX_ROWS (default 1,000,000) rows whose name and
// address are unique shared strings (two million of them, the sheet before the strings as Excel
// stores it), read in one parsing thread of BATCH_PARSE_HEAP_MB (default 160) as an upload is.
// Prints the time and this process's peak RSS (threads included).
import { ParserPool } from '../src/batch/files/isolated-rows.ts';
import { buildZip, upload } from '../src/batch/files/test-fixtures.ts';
const rows = Number(process.env.BENCH_XLSX_ROWS ?? 1_000_000);
const zip = await buildZip([
  { name: 'xl/workbook.xml', content: () => ['<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'] },
  { name: 'xl/_rels/workbook.xml.rels', content: () => ['<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x" Target="worksheets/sheet1.xml"/></Relationships>'] },
  { name: 'xl/worksheets/sheet1.xml', content: function* () {
    yield '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>';
    let buf = '';
    for (let i = 0; i < rows; i++) {
      const r = i + 2;
      buf += `<row r="${r}"><c r="A${r}"><v>1248100998</v></c><c r="B${r}" t="s"><v>${3 + 2 * i}</v></c><c r="C${r}" t="s"><v>${4 + 2 * i}</v></c></row>`;
      if (buf.length > 1 << 20) { yield buf; buf = ''; }
    }
    yield buf + '</sheetData></worksheet>';
  } },
  { name: 'xl/sharedStrings.xml', content: function* () {
    yield '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>사업자등록번호</t></si><si><t>상호</t></si><si><t>주소</t></si>';
    let buf = '';
    for (let i = 0; i < rows; i++) {
      buf += `<si><t>(주)한빛상사 ${i}</t></si><si><t>서울특별시 강남구 테헤란로 ${i}길 ${i % 100} 3층</t></si>`;
      if (buf.length > 1 << 20) { yield buf; buf = ''; }
    }
    yield buf + '</sst>';
  } },
]);
console.log('zip MB', (zip.length / 1e6).toFixed(1));
const pool = new ParserPool({ heapMb: Number(process.env.BATCH_PARSE_HEAP_MB ?? 160) });
const t = performance.now();
try {
  const o = await pool.open(upload(zip, 65536), { maxRows: 2_000_000 });
  let n = 0;
  for await (const b of o.batches) n += b.length;
  console.log('rows', n, 's', ((performance.now() - t) / 1000).toFixed(1));
} catch (e) { console.log('error', (e as Error).message, ((performance.now() - t) / 1000).toFixed(1)); }
const m = /VmHWM:\s+(\d+) kB/.exec((await import('node:fs')).readFileSync('/proc/self/status', 'utf8'));
console.log('peak RSS MB', Number(m![1]) / 1024);
await pool.close();
