// Evidence of a check, over HTTP on each store: a lookup's result names the kept record of the
// NTS answer (verification_id); GET /verifications/{id} returns it signed, to its own account
// only; the public keys are published without a key; and a script that knows nothing but those
// keys (examples/verify-receipt.ts, run as a separate process) accepts the receipt and refuses a
// tampered one.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

const run = promisify(execFile);
const SCRIPT = path.resolve(import.meta.dirname, '../examples/verify-receipt.ts');

/** Runs the offline check as an auditor would: two files, nothing else. */
async function offlineCheck(receipt: unknown, keys: unknown): Promise<{ code: number; out: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-receipt-'));
  try {
    writeFileSync(path.join(dir, 'receipt.json'), JSON.stringify(receipt));
    writeFileSync(path.join(dir, 'keys.json'), JSON.stringify(keys));
    const { stdout } = await run(process.execPath, [SCRIPT, path.join(dir, 'receipt.json'), path.join(dir, 'keys.json')], { timeout: 30_000 });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    return { code: e.code ?? -1, out: e.stderr ?? '' };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describeEachStore('evidence of a check', (kind) => {
  let srv: TestServer;
  before(async () => {
    srv = await startTestServer(kind);
  });
  after(async () => srv.close());

  test('a lookup names its record; the receipt is signed, its own account\'s only, and checks offline', async () => {
    const { apiKey: key } = await srv.account('business');
    const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } });
    assert.equal(res.status, 200);
    const id = res.body.verification_id as string;
    assert.match(id, /^ver_[0-9a-f]{32}$/);
    const again = await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100998' } });
    assert.equal(again.body.verification_id, id, 'the same answer served again is the same record');

    const receipt = await call(srv.url, 'GET', `/verifications/${id}`, { key });
    assert.equal(receipt.status, 200, JSON.stringify(receipt.body));
    assert.equal(receipt.body.b_no, '1248100998');
    assert.equal(receipt.body.api, 'status');
    assert.equal(receipt.body.checked_at, res.body.checked_at);
    assert.deepEqual(receipt.body.record, res.body.nts, 'the record is the answer as NTS sent it');
    assert.equal(receipt.body.signature.alg, 'Ed25519');

    const keys = await call(srv.url, 'GET', '/.well-known/bizcheck-signing-key');
    assert.equal(keys.status, 200, 'published without a key');
    assert.equal(keys.body.keys[0].kid, receipt.body.signature.kid);
    assert.match(keys.body.keys[0].public_key_pem, /BEGIN PUBLIC KEY/);

    const good = await offlineCheck(receipt.body, keys.body);
    assert.equal(good.code, 0, good.out);
    assert.match(good.out, /^valid: /);
    for (const tampered of [
      { ...receipt.body, record: { ...receipt.body.record, b_stt_cd: '03' } },
      { ...receipt.body, checked_at: '2020-01-01T00:00:00.000Z' },
      { ...receipt.body, payload: receipt.body.payload.replace('1248100998', '1248100999') },
    ]) {
      const bad = await offlineCheck(tampered, keys.body);
      assert.equal(bad.code, 1, bad.out);
      assert.match(bad.out, /NOT VALID/);
    }

    const { apiKey: other } = await srv.account('business');
    const stranger = await call(srv.url, 'GET', `/verifications/${id}`, { key: other });
    assert.equal(stranger.status, 404);
    assert.match(stranger.headers.get('content-type') ?? '', /problem\+json/);
    assert.equal((await call(srv.url, 'GET', '/verifications/ver_nope', { key })).status, 404);
    assert.equal((await call(srv.url, 'GET', `/verifications/${id}`)).status, 401);
  });

  test('진위확인 keeps what was asked with what NTS said; a number failing its check digit names no record', async () => {
    const { apiKey: key } = await srv.account('business');
    const res = await call(srv.url, 'POST', '/validate', { key, body: { b_no: '1248100998', start_dt: '19960214', p_nm: '홍길동' } });
    assert.equal(res.status, 200);
    const receipt = await call(srv.url, 'GET', `/verifications/${res.body.verification_id}`, { key });
    assert.equal(receipt.body.api, 'validate');
    assert.equal(receipt.body.record.valid, '01');
    assert.deepEqual([receipt.body.record.request.start_dt, receipt.body.record.request.p_nm], ['19960214', '홍길동']);
    const keys = (await call(srv.url, 'GET', '/.well-known/bizcheck-signing-key')).body;
    assert.equal((await offlineCheck(receipt.body, keys)).code, 0);
    assert.equal((await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1248100999' } })).body.verification_id, null);
  });

  test('every answered batch row names its record, on the general way and on the cache\'s', async () => {
    const { apiKey: key } = await srv.account('business');
    const keys = (await call(srv.url, 'GET', '/.well-known/bizcheck-signing-key')).body;
    const looked = (await call(srv.url, 'POST', '/verify', { key, body: { b_no: '1111111119' } })).body;
    // only cached numbers and no names: the chunk is answered from the cache in SQL
    for (const [body, what] of [['b_no\n1111111119\n1111111119\n', 'cached'], ['b_no,상호\n1111111119,한빛\n2222222227,두리\n1248100999,틀린\n', 'general']] as const) {
      const job = await upload(srv.url, key, { name: `${what}.csv`, body });
      assert.equal(job.status, 202, JSON.stringify(job.body));
      const done = await waitForJob(srv.url, key, job.body.job_id, 30_000, '?preview=10');
      assert.equal(done.body.status, 'done');
      for (const row of done.body.preview) {
        const r = row.result;
        if (r.biz_status === 'invalid') {
          assert.equal(r.verification_id, null, `${what}: a bad number has no answer`);
          continue;
        }
        assert.match(r.verification_id, /^ver_/, `${what} row ${row.row_id}`);
        if (r.b_no === '1111111119') assert.equal(r.verification_id, looked.verification_id, `${what}: the answer /verify was given is the same record`);
        const receipt = await call(srv.url, 'GET', `/verifications/${r.verification_id}`, { key });
        assert.equal(receipt.status, 200, `${what} row ${row.row_id}: ${JSON.stringify(receipt.body)}`);
        assert.deepEqual(receipt.body.record, r.nts);
        assert.equal((await offlineCheck(receipt.body, keys)).code, 0);
      }
      // the download names them too, row by row
      const json = await fetch(`${srv.url}/batch/${job.body.job_id}/results?format=json`, { headers: { 'x-api-key': key } });
      const downloaded = (await json.json()) as { verification_id: string | null }[];
      assert.deepEqual(downloaded.map((d) => d.verification_id), done.body.preview.map((row: any) => row.result.verification_id));
    }
  });

  test('a watch entry names the evidence of its first check', async () => {
    const { apiKey: key } = await srv.account('business');
    const w = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: '3333333336' } });
    assert.equal(w.status, 201);
    assert.match(w.body.verification_id, /^ver_/);
    const receipt = await call(srv.url, 'GET', `/verifications/${w.body.verification_id}`, { key });
    assert.equal(receipt.status, 200);
    assert.equal(receipt.body.record.b_stt_cd, '03');
    const history = await call(srv.url, 'GET', `/watch/${w.body.watch_id}/history`, { key });
    assert.equal(history.body.history[0].verification_id, w.body.verification_id);
  });

  test('the signing key is made once and kept: a restarted service signs with the same key', async () => {
    const first = (await call(srv.url, 'GET', '/.well-known/bizcheck-signing-key')).body.keys;
    const second = await startTestServer(kind, {}, kind === 'postgres' ? { shareWith: srv } : {});
    try {
      const keys = (await call(second.url, 'GET', '/.well-known/bizcheck-signing-key')).body.keys;
      if (kind === 'postgres') assert.deepEqual(keys, first, 'a second process on the same database publishes the same key');
      else assert.equal(keys.length, 1);
    } finally {
      if (kind === 'postgres') await second.stop();
      else await second.close();
    }
  });
});
