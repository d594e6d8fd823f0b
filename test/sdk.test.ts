// The SDK (sdk/) as a customer uses it against a running server: its types are the API's own
// (generated from /openapi.json, and checked not to have drifted), a file goes up and its
// progress and results come back, outcomes and the watch list work, refusals are typed errors,
// and a real webhook delivery verifies with the Standard Webhooks library.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { Bizcheck, BizcheckError, type BatchStatus } from '../sdk/src/index.ts';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { generatedSchema } from '../scripts/sdk-generate.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';

const active = SANDBOX_FIXED.find((f) => f.status === 'active')!.bno;
const closed = SANDBOX_FIXED.find((f) => f.status === 'closed')!.bno;

describe('the SDK against a running server', () => {
  let srv: TestServer;
  let api: Bizcheck;
  let receiver: Receiver;

  before(async () => {
    srv = await startTestServer('sqlite', { BATCH_CHUNK_ROWS: '20', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true' });
    api = new Bizcheck({ apiKey: (await srv.account('business')).apiKey, baseUrl: srv.url });
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver.close();
    await srv.close();
  });

  test('its types are generated from the document the server serves now', async () => {
    assert.equal(readFileSync(path.resolve(import.meta.dirname, '../sdk/src/schema.d.ts'), 'utf8'), await generatedSchema(), 'run npm run sdk:generate');
  });

  test('lookups, and refusals as typed errors carrying the problem', async () => {
    const me = await api.me();
    assert.equal(me.plan, 'business');
    const r = await api.verify({ b_no: closed, name: '한빛상사', address: '서울특별시 중구 세종대로 110' });
    assert.equal(r.biz_status, 'closed');
    assert.match(r.grade ?? '', /^[A-E]$/);
    const v = await api.validate({ b_no: '1248100998', start_dt: '19960214', p_nm: '홍길동' });
    assert.equal(v.valid, true);
    const bad = await api.verify({ b_no: 'nope' }).catch((e: unknown) => e);
    assert.ok(bad instanceof BizcheckError);
    assert.equal(bad.status, 400);
    assert.equal(bad.code, 'bad_request');
    assert.match(bad.requestId ?? '', /\S/);
    const stranger = await new Bizcheck({ apiKey: 'bzk_notakey_0', baseUrl: srv.url }).me().catch((e: unknown) => e);
    assert.ok(stranger instanceof BizcheckError && stranger.status === 401 && stranger.code === 'unauthorized');
  });

  test('a file goes up, progress comes as events, the results stream back as rows and as a workbook', async () => {
    const lines = ['사업자등록번호,상호,주소', ...Array.from({ length: 60 }, (_, i) => `${SANDBOX_FIXED[i % SANDBOX_FIXED.length]!.bno},상점${i},서울특별시 중구 세종대로 110`)];
    const job = await api.batch.upload(new File([lines.join('\n')], '거래처.csv', { type: 'text/csv' }), { idempotencyKey: `sdk-${Date.now()}` });
    assert.equal(job.accepted?.total, 60);
    assert.equal(job.accepted?.file.address_column, '주소');
    assert.equal((await api.batch.job(job.id).status()).job_id, job.id, 'a job opened by id');
    const events: BatchStatus[] = [];
    const final = await job.done({ pollMs: 50, timeoutMs: 30_000, onProgress: (s) => events.push(s) });
    assert.equal(final.status, 'done');
    assert.ok(events.length >= 1);
    assert.deepEqual(events.map((e) => e.processed), events.map((e) => e.processed).toSorted((a, b) => a - b), 'progress only goes forward');
    let rows = 0;
    for await (const row of job.results()) {
      rows++;
      assert.equal(row['input:상호'], `상점${rows - 1}`);
      assert.equal(row.row_id, rows);
    }
    assert.equal(rows, 60);
    const chunks: Buffer[] = [];
    for await (const c of await job.download('xlsx')) chunks.push(Buffer.from(c));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(chunks) as unknown as ArrayBuffer);
    assert.equal(wb.worksheets[0]!.rowCount, 61);

    // outcomes: one, many, and the mailroom's file
    assert.equal((await api.labels.record(job.id, { row_id: 1, bounced: true, reason: '이사불명' })).row_id, 1);
    const many = await api.labels.bulk(job.id, [{ row_id: 2, bounced: false }, { row_id: 999, bounced: true }]);
    assert.equal(many.recorded, 1);
    assert.equal(many.rejected.length, 1);
    const file = await api.labels.file(job.id, new File([`사업자등록번호,반송사유\n${SANDBOX_FIXED[3]!.bno},폐문부재\n`], 'returned.csv'), { outcome: 'bounced' });
    assert.ok(file.recorded >= 1);

    // the same Idempotency-Key is the same job; a job of another account is 404
    const other = new Bizcheck({ apiKey: (await srv.account('business')).apiKey, baseUrl: srv.url });
    const hidden = await other.batch.status(job.id).catch((e: unknown) => e);
    assert.ok(hidden instanceof BizcheckError && hidden.status === 404);
  });

  test('the watch list: add, list, check now, history, remove', async () => {
    const w = await api.watch.add({ biz_no: active, name: '한빛상사' });
    assert.equal(w.biz_no, active);
    assert.ok((await api.watch.list({ limit: 10 })).data.some((e) => e.watch_id === w.watch_id));
    assert.equal((await api.watch.check(w.watch_id)).watch_id, w.watch_id);
    assert.equal((await api.watch.history(w.watch_id)).watch_id, w.watch_id);
    assert.equal((await api.watch.remove(w.watch_id)).deleted, true);
    const gone = await api.watch.get(w.watch_id).catch((e: unknown) => e);
    assert.ok(gone instanceof BizcheckError && gone.code === 'not_found');
  });

  test('webhooks.verify accepts a real delivery and refuses a tampered one', async () => {
    const endpoint = await api.client.PUT('/webhook', { body: { url: receiver.url } });
    const secret = endpoint.data!.secret;
    await api.client.POST('/webhook/test');
    const [delivery] = await receiver.waitFor(1);
    const headers = Object.fromEntries(Object.entries(delivery!.headers).map(([k, v]) => [k, String(v)]));
    const event = Bizcheck.webhooks.verify(delivery!.body, headers, secret);
    assert.equal(event.type, 'webhook.test');
    assert.throws(() => api.webhooks.verify(delivery!.body.replace('webhook.test', 'watch.closed'), headers, secret));
    assert.throws(() => api.webhooks.verify(delivery!.body, headers, `whsec_${Buffer.alloc(32, 1).toString('base64')}`));
  });
});
