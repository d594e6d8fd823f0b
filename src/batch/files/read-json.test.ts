import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { openRows, readRows } from './read-rows.ts';
import { collect, fileError, upload } from './test-fixtures.ts';

const T = { timeout: 10_000 };


test('a JSON array of objects: values as text, nested values as JSON text, keys in order of first appearance', T, async () => {
  const json = JSON.stringify([
    { b_no: '124-81-00998', name: '한빛상사', address: '서울 강남구', tags: ['우수', 'VIP'], meta: { since: 2019, memo: null } },
    { b_no: 2208162517, name: '두리물산', active: true, address: null },
    { name: '번호 없음' },
  ]);
  const opened = await openRows(upload(json, 5), { filename: 'customers.json', maxRows: 10 });
  assert.equal(opened.kind, 'json');
  assert.deepEqual(opened.headers, ['b_no', 'name', 'address', 'tags', 'meta', 'active']);
  assert.deepEqual(opened.chosen, { bno: 'b_no', name: 'name', address: 'address', representative: null, opened: null });
  const rows = await collect(opened.rows);
  assert.deepEqual(rows[0]!.cells, { b_no: '124-81-00998', name: '한빛상사', address: '서울 강남구', tags: '["우수","VIP"]', meta: '{"since":2019,"memo":null}', active: '' });
  assert.deepEqual([rows[1]!.bno, rows[1]!.address, rows[1]!.cells.active], ['2208162517', null, 'true']);
  assert.deepEqual([rows[2]!.rowId, rows[2]!.bno, rows[2]!.bnoRaw], [3, null, '']);
});

test('NDJSON with CRLF and blank lines; a key first seen late still reaches cells', T, async () => {
  const lines = [];
  for (let i = 0; i < 60; i++) lines.push(JSON.stringify({ 사업자등록번호: '1248100998', 상호: `업체${i}` }));
  lines.push(JSON.stringify({ 사업자등록번호: '2208162517', 상호: '늦은', 비고: '새 열' }));
  const text = `${lines.join('\r\n')}\r\n\r\n{}\r\n`;
  const opened = await openRows(upload(text, 11), { maxRows: 100 });
  assert.deepEqual(opened.headers, ['사업자등록번호', '상호']);
  const rows = await collect(opened.rows);
  assert.equal(rows.length, 61);
  assert.deepEqual(rows.at(-1)!.cells, { 사업자등록번호: '2208162517', 상호: '늦은', 비고: '새 열' });
  assert.deepEqual(opened.headers, ['사업자등록번호', '상호', '비고']);
});

test('a key present only in a later object of the first few is still recognised', T, async () => {
  const text = '{"b_no":"1248100998"}\n{"b_no":"2208162517","주소":"부산"}\n';
  const opened = await openRows(upload(text), { maxRows: 10 });
  assert.equal(opened.chosen.address, '주소');
  assert.deepEqual((await collect(opened.rows)).map((r) => r.address), [null, '부산']);
});

test('100,000 nested arrays are refused as too_deep, without recursion', T, async () => {
  const deepValue = `[{"b_no":"1248100998","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}]`;
  assert.equal((await fileError(collect(readRows(upload(deepValue, 64 * 1024), { maxRows: 10 })))).code, 'too_deep');
  const deepObjects = `{"b_no":"1248100998","x":${'{"x":'.repeat(100_000)}`;
  assert.equal((await fileError(openRows(upload(deepObjects, 64 * 1024), { maxRows: 10 }))).code, 'too_deep');
  // an array of arrays is not a list of customers, however deep it goes
  assert.equal((await fileError(openRows(upload('['.repeat(100_000), 64 * 1024), { maxRows: 10 }))).code, 'bad_json');
  // within the limit nesting is fine
  const ok = await collect(readRows(upload(`[{"b_no":"1248100998","x":${'['.repeat(10)}1${']'.repeat(10)}}]`), { maxRows: 10 }));
  assert.equal(ok[0]!.cells.x, `${'['.repeat(10)}1${']'.repeat(10)}`);
});

function* hugeString() {
  yield Buffer.from('[{"b_no":"1248100998","memo":"');
  // 18 MB of one string
  for (let i = 0; i < 200; i++) yield Buffer.from('가'.repeat(30_000));
  yield Buffer.from('"}]');
}

test('a huge string value is kept only up to the cell limit', T, async () => {
  const rows = await collect(readRows(Readable.from(hugeString(), { objectMode: false }), { maxRows: 10, maxCellChars: 100 }));
  assert.equal(rows[0]!.cells.memo, '가'.repeat(100));
});

test('malformed JSON is bad_json with a reason', T, async () => {
  const cases = ['[{"b_no":"1248100998"}', '[{"b_no":"1248100998"}] trailing', '[{"b_no": 1248100998,}]', '["1248100998","2208162517"]', '{"b_no":"1"}\n[1,2]\n', '[{"b_no":"1248100998"}][]'];
  for (const text of cases) {
    const err = await fileError(collect(readRows(upload(text), { maxRows: 10 })));
    assert.equal(err.code, 'bad_json', text);
    assert.match(err.message, /JSON/);
  }
});

test('an empty array, empty objects and a JSON without a number key', T, async () => {
  assert.equal((await fileError(openRows(upload('[]'), { maxRows: 10 }))).code, 'empty');
  assert.equal((await fileError(openRows(upload('[{}, {"a": ""}]'), { maxRows: 10 }))).code, 'empty');
  const err = await fileError(openRows(upload('[{"id":1,"company":"한빛"}]'), { maxRows: 10 }));
  assert.equal(err.code, 'no_number_column');
  assert.match(err.message, /"id", "company"/);
});

test('too many objects stops as soon as the limit is passed', T, async () => {
  const text = `[${Array.from({ length: 500 }, () => '{"b_no":"1248100998"}').join(',')}]`;
  let seen = 0;
  const err = await fileError(
    (async () => {
      for await (const _ of readRows(upload(text, 100), { maxRows: 100 })) seen++;
    })(),
  );
  assert.equal(err.code, 'too_many_rows');
  assert.equal(seen, 100);
});
