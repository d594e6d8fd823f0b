import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { ParserPool } from './isolated-rows.ts';
import { openRows } from './read-rows.ts';
import { collect, fileError, upload } from './test-fixtures.ts';

const T = { timeout: 30_000 };
const GREEDY = new URL('../../../test/helpers/greedy-parser.ts', import.meta.url);

function csv(rows: number, wideFrom = Infinity): string {
  const lines = ['사업자등록번호,상호,주소'];
  for (let i = 1; i <= rows; i++) lines.push(`124-81-00998,업체${i},"서울, 강남구 ${i}"${i >= wideFrom ? ',비고,추가' : ''}`);
  return `${lines.join('\r\n')}\r\n`;
}

test('a file read in a parsing thread gives what openRows gives, headers that grow while reading included', T, async (t) => {
  const pool = new ParserPool({ heapMb: 64 });
  t.after(() => pool.close());
  const inputs: [string, string][] = [
    ['list.csv', csv(5000, 4990)],
    ['list.ndjson', `${JSON.stringify({ b_no: '1248100998' })}\n`.repeat(3000) + `${JSON.stringify({ b_no: '2208162517', 비고: '늦은 열' })}\n`],
  ];
  for (const [filename, text] of inputs) {
    const direct = await openRows(upload(text, 4096), { filename, maxRows: 10_000 });
    const directRows = await collect(direct.rows);
    const isolated = await pool.open(upload(text, 4096), { filename, maxRows: 10_000 });
    assert.deepEqual([isolated.kind, isolated.encoding, isolated.delimiter, isolated.chosen], [direct.kind, direct.encoding, direct.delimiter, direct.chosen]);
    assert.deepEqual(await collect(isolated.rows), directRows, filename);
    assert.deepEqual(isolated.headers, direct.headers, filename);
  }
  // both threads finished their files and wait for the next ones
  assert.equal(pool.idle, 1);
});

test('the thread that read a large file is ended, not kept idle with the heap the file grew', T, async (t) => {
  const pool = new ParserPool({ heapMb: 64, keepAfterBytes: 64 * 1024 });
  t.after(() => pool.close());
  const small = csv(100);
  assert.equal((await collect((await pool.open(upload(small), { maxRows: 10_000 })).rows)).length, 100);
  assert.equal(pool.idle, 1, 'a small file leaves its thread for the next');
  const large = csv(5000);
  assert.ok(Buffer.byteLength(large) > 64 * 1024);
  assert.equal((await collect((await pool.open(upload(large, 16 * 1024), { maxRows: 10_000 })).rows)).length, 5000);
  assert.equal(pool.idle, 0, 'a large one ends it');
});

test('a parse that runs out of memory ends its own thread only: 413 too_large, and the next file is read', T, async (t) => {
  const greedy = new ParserPool({ heapMb: 32, workerUrl: GREEDY });
  const pool = new ParserPool({ heapMb: 64 });
  t.after(() => Promise.all([greedy.close(), pool.close()]));
  const err = await fileError(greedy.open(upload(csv(10)), { maxRows: 10 }));
  assert.equal(err.code, 'too_large');
  assert.equal(err.status, 413);
  assert.match(err.message, /메모리/);
  assert.equal(greedy.idle, 0, 'the thread that ran out of memory is not reused');
  const rows = await collect((await pool.open(upload(csv(10)), { maxRows: 10 })).rows);
  assert.equal(rows.length, 10);
  // this process is still well: its heap never held what the thread built
  assert.ok(process.memoryUsage().heapUsed < 200 * 1024 * 1024);
});

test('a refused file frees its thread for the next; an abandoned one ends it', T, async (t) => {
  const pool = new ParserPool({ heapMb: 64 });
  t.after(() => pool.close());
  const refused = await fileError(pool.open(upload('이름,전화\n홍길동,010\n'), { maxRows: 10 }));
  assert.equal(refused.code, 'no_number_column');
  assert.equal(pool.idle, 1);
  const tooMany = await pool.open(upload(csv(50)), { maxRows: 20 });
  assert.equal((await fileError(collect(tooMany.rows))).code, 'too_many_rows');
  assert.equal(pool.idle, 1);

  const abandoned = await pool.open(upload(csv(20_000), 1024), { maxRows: 100_000 });
  const first = await abandoned.batches.next();
  assert.ok(!first.done && first.value.length > 0);
  await abandoned.close();
  assert.equal(pool.idle, 0, 'a thread left mid-file is ended, not reused');
});

/** The rows of a file whose reading fails somewhere: while the columns are still sought, or after. */
async function readAll(pool: ParserPool, ...args: Parameters<ParserPool['open']>): Promise<unknown> {
  return collect((await pool.open(...args)).rows);
}

test('an upload that fails midway fails the read with its own error; an abort with the signal reason', T, async (t) => {
  const pool = new ParserPool({ heapMb: 64 });
  t.after(() => pool.close());
  const body = new PassThrough();
  body.write(csv(100));
  const broken = new Error('client went away');
  setTimeout(() => body.destroy(broken), 50);
  await assert.rejects(readAll(pool, body, { maxRows: 1000 }), (e) => e === broken);

  const stalled = new PassThrough();
  stalled.write('b_no\n1248100998\n');
  const controller = new AbortController();
  const reason = new Error('request closed');
  setTimeout(() => controller.abort(reason), 50);
  await assert.rejects(readAll(pool, stalled, { maxRows: 1000, signal: controller.signal }), (e) => e === reason);
  assert.equal(pool.idle, 0, 'threads of files that failed midway are ended');
});
