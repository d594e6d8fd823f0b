// A process killed while an upload with an Idempotency-Key streams in: the key must become usable
// again once the dead upload's lease runs out (not answer 409 "being created" for good), and the
// half-written job's chunks must go. On PostgreSQL another process reclaims it while running; on
// the embedded store (one process per database) the restarted process does.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, test } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.ts';
import { upload } from '../helpers/batch.ts';
import { eventually, numbers, openTestDb, Processes, reliabilitySuite, type TestDb } from './helpers.ts';
import { chunksAfter } from '../../src/batch/chunks.ts';

const T = { timeout: 90_000 };
const LEASE_S = 3;

/** Starts a multipart upload of `head` and leaves it open, as a client whose server died would. */
function openUpload(url: string, key: string, idempotencyKey: string, head: string): http.ClientRequest {
  const boundary = 'crashboundary';
  const req = http.request(`${url}/batch`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'idempotency-key': idempotencyKey, 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  req.on('error', () => undefined);
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="list.csv"\r\nContent-Type: text/csv\r\n\r\n${head}`);
  return req;
}

for (const kind of ['postgres', 'sqlite'] as const) {
  reliabilitySuite(`an upload whose process was killed frees its Idempotency-Key [${kind}]`, { needsPostgres: kind === 'postgres' }, () => {
    let db: TestDb;
    const procs = new Processes();
    let env: Record<string, string>;

    before(async () => {
      db = await openTestDb(kind);
      env = { ...db.env, BATCH_UPLOAD_LEASE_SECONDS: String(LEASE_S), BATCH_CHUNK_ROWS: '10' };
    });
    after(async () => {
      await procs.stopAll();
      await db?.cleanup();
    });

    test('killed mid-upload: the key answers again within the lease, and the dead job is gone with its chunks', T, async () => {
      const { account, apiKey } = await createAccount(db.store, `upload-crash-${kind}@example.com`, 'business');
      const victim = await procs.start('victim', 'all', env);
      // PostgreSQL: a second process on the same database lives on
      const survivor = kind === 'postgres' ? await procs.start('survivor', 'api', env) : undefined;
      const list = numbers(300, 7);
      // far more than one read's worth, so chunks are written while the request is still open
      const req = openUpload(victim.url, apiKey, 'K-1', `사업자등록번호\n${list.join('\n')}\n`.repeat(40));
      const dead = await eventually('the upload has written chunks', 200, 50, async () => {
        const job = await db.store.batches.findJobByIdempotencyKey(account.id, 'K-1');
        if (!job || job.status !== 'uploading') return undefined;
        return (await chunksAfter(db.store.batches, job.id, 0, 1)).length > 0 ? job : undefined;
      });
      await victim.kill();
      req.destroy();

      const server = survivor ?? (await procs.start('restarted', 'all', env));
      const body = `사업자등록번호\n${list.slice(0, 5).join('\n')}\n`;
      let conflicts = 0;
      const res = await eventually('the key is usable again', 60, 250, async () => {
        const r = await upload(server.url, apiKey, { name: 'list.csv', body }, '', { 'idempotency-key': 'K-1' });
        if (r.status === 409) {
          conflicts++;
          return undefined;
        }
        return r;
      });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.notEqual(res.body.job_id, dead.id);
      assert.equal(res.body.total, 5);
      // the wait was the lease, not forever: at most the lease plus a poll or two
      assert.ok(conflicts * 250 <= (LEASE_S + 2) * 1000, `409 for ${conflicts} tries`);
      assert.deepEqual(await chunksAfter(db.store.batches, dead.id, 0, 10), [], 'the dead upload\'s chunks are removed');
      assert.equal(await db.store.batches.jobById(dead.id), null);
    });
  });
}
