// The API as /openapi.json describes it: the document passes an independent OpenAPI validator,
// and every route answers, in success and in error, with a status, media type, body and headers
// the document declares (checked by Ajv against the document's own schemas). Every operation
// in the document is exercised at least once with a success.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import ExcelJS from 'exceljs';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

type Json = Record<string, unknown>;
type Operation = { responses: Record<string, { content?: Record<string, { schema?: Json }>; headers?: Record<string, Json> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

const form = (name: string, content: string | Buffer, type = 'text/csv') => {
  const f = new FormData();
  f.append('file', new Blob([content], { type }), name);
  return f;
};

const active = SANDBOX_FIXED.find((f) => f.status === 'active')!.bno;
const closed = SANDBOX_FIXED.find((f) => f.status === 'closed')!.bno;

describeEachStore('the OpenAPI document is the contract', (kind) => {
  let srv: TestServer;
  let doc: Doc;
  let ajv: InstanceType<typeof Ajv2020>;
  let key: string;
  let pro: string;
  const seen = new Set<string>();
  const problems: string[] = [];

  before(async () => {
    srv = await startTestServer(kind, { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_HTTP: 'true', BATCH_CHUNK_ROWS: '50' });
    doc = (await (await fetch(`${srv.url}/openapi.json`)).json()) as Doc;
    ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi.json');
    ({ apiKey: key } = await srv.account('business'));
    ({ apiKey: pro } = await srv.account('pro'));
  });
  after(async () => srv.close());

  /** The document's operation for a request path, by its template. */
  function operationOf(method: string, path: string): { template: string; op: Operation } | null {
    const bare = path.split('?')[0]!;
    for (const [template, ops] of Object.entries(doc.paths)) {
      const re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|\{[^}]+\}/g, '[^/]+')}$`);
      if (re.test(bare) && ops[method.toLowerCase()]) return { template, op: ops[method.toLowerCase()]! };
    }
    return null;
  }

  /** Sends a request and checks its answer against the document; returns the answer. */
  async function send(method: string, path: string, init: { key?: string | null; json?: unknown; body?: string | FormData; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...(init.key === null ? {} : { 'x-api-key': init.key ?? key }), ...init.headers };
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch(`${srv.url}${path}`, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const bytes = Buffer.from(await res.arrayBuffer());
    const found = operationOf(method, path);
    const what = `${method} ${path} → ${res.status}`;
    if (!found) {
      problems.push(`${what}: no such operation in the document`);
      return { res, bytes, json: null as unknown };
    }
    const declared = found.op.responses[String(res.status)];
    if (!declared) {
      problems.push(`${what}: status not declared (declared: ${Object.keys(found.op.responses).join(', ')})`);
      return { res, bytes, json: null as unknown };
    }
    if (res.status < 300) seen.add(`${method.toLowerCase()} ${found.template}`);
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
    let json: unknown = null;
    if (bytes.length > 0 || declared.content) {
      const media = declared.content?.[type];
      if (!media) problems.push(`${what}: media type ${type} not declared (declared: ${Object.keys(declared.content ?? {}).join(', ') || 'none'})`);
      else if (/json/.test(type)) {
        json = JSON.parse(bytes.toString('utf8'));
        const validate = ajv.compile({ $ref: `openapi.json#/${pointer('paths', found.template, method.toLowerCase(), 'responses', String(res.status), 'content', type, 'schema')}` });
        if (!validate(json)) problems.push(`${what}: body does not match: ${ajv.errorsText(validate.errors)}`);
      }
    }
    for (const h of ['x-request-id']) {
      if (!Object.keys(declared.headers ?? {}).some((d) => d.toLowerCase() === h)) problems.push(`${what}: header ${h} sent but not declared`);
    }
    for (const h of ['ratelimit', 'ratelimit-policy', 'retry-after', 'location', 'idempotent-replayed']) {
      if (res.headers.has(h) && !Object.keys(declared.headers ?? {}).some((d) => d.toLowerCase() === h)) problems.push(`${what}: header ${h} sent but not declared`);
    }
    return { res, bytes, json };
  }


  test('an independent validator accepts the document', async () => {
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
    const batch = doc.paths['/batch']!.post as unknown as { requestBody?: { content: Json } };
    assert.ok(batch.requestBody?.content['multipart/form-data'], 'POST /batch describes its multipart file part');
    const results = doc.paths['/batch/{job_id}/results']!.get!;
    assert.deepEqual(Object.keys(results.responses['200']!.content ?? {}).toSorted(), ['application/json', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/csv']);
  });

  test('every route answers as documented, in success and in error, and every operation is exercised', async () => {
    // lookups and the account
    await send('GET', '/me');
    await send('POST', '/verify', { json: { b_no: active, name: '한빛상사', address: '서울특별시 중구 세종대로 110' } });
    const verified = await send('POST', '/verify', { json: { b_no: closed } });
    await send('POST', '/verify', { json: { b_no: 'nope' } });
    await send('POST', '/verify', { key: null, json: { b_no: active } });
    await send('POST', '/verify', { key: pro, json: { b_no: active } });
    await send('POST', '/verify', { body: '{"b_no":"1248100998"}', headers: { 'content-type': 'text/plain' } });
    await send('POST', '/verify', { json: { b_no: active, name: 'x'.repeat(srv.config.bodyLimitBytes) } });
    await send('POST', '/validate', { json: { b_no: active, start_dt: '19960214', p_nm: '홍길동' } });
    await send('POST', '/validate', { json: { b_no: active } });
    await send('GET', `/verifications/${(verified.json as { verification_id: string }).verification_id}`);
    await send('GET', '/verifications/vrf_unknown');
    await send('GET', '/.well-known/bizcheck-signing-key', { key: null });

    // a batch job: upload, status, every download, labels, watch all, delete
    const csv = `사업자등록번호,상호,주소\n${active},한빛,서울특별시 중구 세종대로 110\n${closed},두리,\n`;
    const up = await send('POST', '/batch', { body: form('list.csv', csv), headers: { 'idempotency-key': 'contract-1' } });
    const jobId = (up.json as { job_id: string }).job_id;
    await send('POST', '/batch', { body: form('list.csv', csv), headers: { 'idempotency-key': 'contract-1' } });
    await send('POST', '/batch', { body: form('other.csv', `b_no\n${active}\n`), headers: { 'idempotency-key': 'contract-1' } });
    await send('POST', '/batch', { body: form('none.csv', '상호\n한빛\n') });
    await send('POST', '/batch', { json: { b_no: active } });
    await send('POST', '/batch/inspect', { body: form('list.csv', csv) });
    await send('POST', '/batch/inspect', { body: form('none.csv', '상호\n한빛\n') });
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('안내').addRow(['설명']);
    const ws = wb.addWorksheet('목록');
    ws.addRow(['b_no']);
    ws.addRow([active]);
    await send('POST', '/batch', { body: form('list.xlsx', Buffer.from(await wb.xlsx.writeBuffer()), 'application/octet-stream') });
    for (let i = 0; i < 100; i++) {
      const s = await send('GET', `/batch/${jobId}?preview=5`);
      if ((s.json as { status: string }).status === 'done') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    await send('GET', '/batch?limit=5');
    await send('GET', '/batch/job_unknown');
    for (const f of ['csv', 'xlsx', 'json']) await send('GET', `/batch/${jobId}/results?format=${f}`);
    await send('POST', `/batch/${jobId}/label`, { json: { row_id: 1, bounced: true, reason: '이사불명' } });
    await send('POST', `/batch/${jobId}/label`, { json: { row_id: 99, bounced: true } });
    await send('POST', `/batch/${jobId}/labels`, { json: [{ row_id: 2, bounced: false }, { b_no: '0000000000', bounced: true }] });
    await send('POST', `/batch/${jobId}/labels?outcome=bounced`, { body: form('returned.csv', `사업자등록번호,반송사유\n${active},폐문부재\n`) });
    await send('POST', `/batch/${jobId}/watch`);

    // the watch list and webhooks
    const w = await send('POST', '/watch', { json: { biz_no: active, name: '한빛' } });
    const watchId = (w.json as { watch_id: string }).watch_id;
    await send('POST', '/watch', { json: { biz_no: active } });
    await send('POST', '/watch', { json: [{ biz_no: closed }, { biz_no: '1234567890' }] });
    await send('POST', '/watch', { json: { biz_no: '124-81-00998' } });
    await send('GET', '/watch?limit=2');
    await send('GET', `/watch/${watchId}`);
    await send('POST', `/watch/${watchId}/check`);
    await send('GET', `/watch/${watchId}/history`);
    await send('GET', '/watch/wch_unknown');
    await send('GET', `/watch/${watchId}/history`, { key: pro });
    await send('PUT', '/webhook', { json: { url: 'http://127.0.0.1:9/hook' } });
    await send('PATCH', '/webhook', { json: { enabled_events: ['watch.closed'] } });
    await send('GET', '/webhook');
    const t = await send('POST', '/webhook/test');
    await send('GET', '/webhook/deliveries');
    await send('GET', `/webhook/deliveries/${(t.json as { delivery_id: string }).delivery_id}`);
    await send('DELETE', '/webhook');
    await send('DELETE', `/watch/${watchId}`);
    await send('DELETE', `/batch/${jobId}`);
    await send('GET', `/batch/${jobId}`);

    assert.deepEqual(problems, [], 'answers the document does not describe');
    const operations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`));
    assert.deepEqual(operations.filter((o) => !seen.has(o)), [], 'operations never answered with a success here');
  });
});
