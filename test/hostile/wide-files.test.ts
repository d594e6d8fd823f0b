// Wide rows make small chunks: a chunk is what a worker holds and a download reads at once, so it
// is bounded by its characters as well as its rows. The rows, counts and download are unchanged.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { checkDigitOf } from '../../src/domain/bizno.ts';
import { upload, waitForJob } from '../helpers/batch.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { describeEachStore } from '../helpers/stores.ts';

const valid = (i: number) => {
  const nine = String(300000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};

const memo = (r: number, c: number) => `${String(r).padStart(3, '0')}:${c}:${'x'.repeat(1500)}`;

describeEachStore('wide files', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind, { BATCH_CHUNK_ROWS: '1000', BATCH_CHUNK_CHARS: '10000' });
    ({ apiKey: key } = await srv.account('business'));
  });
  after(async () => srv.close());

  test('rows of wide cells are cut into chunks by characters, and read back whole and in order', async () => {
    const rows = 40;
    const lines = ['사업자등록번호,메모1,메모2'];
    for (let r = 0; r < rows; r++) lines.push(`${valid(r)},${memo(r, 1)},${memo(r, 2)}`);
    const res = await upload(srv.url, key, { name: 'wide.csv', body: `${lines.join('\n')}\n` }, '?offline=true');
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const job = await srv.store.batches.jobById(res.body.job_id);
    // 40 rows of ~3,000 characters: ~12 chunks of ~10,000 characters, not one of 1,000 rows
    assert.ok(job!.chunksTotal >= 10 && job!.chunksTotal <= 14, `${job!.chunksTotal} chunks`);
    const done = await waitForJob(srv.url, key, res.body.job_id);
    assert.equal(done.body.status, 'done');
    assert.equal(done.body.processed, rows);
    const download = await fetch(`${srv.url}/batch/${res.body.job_id}/results?format=csv`, { headers: { 'x-api-key': key } });
    const records = parse((await download.text()).replace(/^\uFEFF/, ''), { columns: true }) as Record<string, string>[];
    assert.deepEqual(records.map((r) => r['input:메모1']), Array.from({ length: rows }, (_, r) => memo(r, 1)));
    assert.deepEqual(records.map((r) => r['input:메모2']), Array.from({ length: rows }, (_, r) => memo(r, 2)));
  });
});
