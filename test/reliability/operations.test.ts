// What operators rely on: readiness follows the database (503 while it is unreachable, 200 again
// when it is back, without a restart), /metrics counts by route pattern and never by id, and
// METRICS_ENABLED=false removes the page.
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket, connect } from 'node:net';
import { after, before, test } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.ts';
import { SANDBOX_FIXED } from '../../src/registry/sandbox.ts';
import { upload, waitForJob } from '../helpers/batch.ts';
import { call } from '../helpers/server.ts';
import { PG_URL } from '../helpers/stores.ts';
import { eventually, metric, openTestDb, Processes, reliabilitySuite, type ServerProcess, type TestDb } from './helpers.ts';

const T = { timeout: 60_000 };

/** A TCP relay to PostgreSQL that the test can cut and restore, as a failing network would. */
class CuttableRelay {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #target: { host: string; port: number };
  port = 0;

  constructor(target: { host: string; port: number }) {
    this.#target = target;
  }

  async up(): Promise<void> {
    this.#server = createServer((client) => {
      const upstream = connect(this.#target.port, this.#target.host);
      for (const s of [client, upstream]) {
        this.#sockets.add(s);
        s.on('close', () => this.#sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.#server!.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.#server.address() as { port: number }).port;
  }

  async down(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    this.#server = undefined;
  }
}

reliabilitySuite('readiness and metrics', { needsPostgres: true }, () => {
  let db: TestDb;
  let relay: CuttableRelay;
  const procs = new Processes();
  let server: ServerProcess;
  let quiet: ServerProcess;
  let worker: ServerProcess;

  before(async () => {
    db = await openTestDb('postgres');
    const pg = new URL(PG_URL!);
    relay = new CuttableRelay({ host: pg.hostname, port: Number(pg.port || 5432) });
    await relay.up();
    const viaRelay = new URL(PG_URL!);
    viaRelay.port = String(relay.port);
    server = await procs.start('api', 'all', { ...db.env, DATABASE_URL: viaRelay.toString() });
    quiet = await procs.start('no-metrics', 'api', { ...db.env, METRICS_ENABLED: 'false' });
    worker = await procs.start('cli-worker', 'worker', db.env, { viaCli: true });
  });
  after(async () => {
    await procs.stopAll();
    await relay?.down();
    await db?.cleanup();
  });

  test('/metrics counts requests by route pattern and status, never by job id', T, async () => {
    const { apiKey } = await createAccount(db.store, 'ops@example.com', 'business');
    const job = await upload(server.url, apiKey, { name: 'm.csv', body: `b_no\n${SANDBOX_FIXED[0]!.bno}\n` });
    await waitForJob(server.url, apiKey, job.body.job_id);
    assert.equal((await call(server.url, 'GET', '/batch/job_nope', { key: apiKey })).status, 404);
    const text = await (await fetch(`${server.url}/metrics`)).text();
    assert.ok(!text.includes(job.body.job_id) && !text.includes('job_nope'), 'no ids in the metrics');
    assert.ok((await metric(server.url, 'bizcheck_http_requests_total', { method: 'GET', route: '/batch/:job_id', status: '200' })) >= 1);
    assert.equal(await metric(server.url, 'bizcheck_http_requests_total', { method: 'GET', route: '/batch/:job_id', status: '404' }), 1);
    assert.equal(await metric(server.url, 'bizcheck_http_requests_total', { method: 'POST', route: '/batch', status: '202' }), 1);
    // the worker process shares the queue: whichever claimed the chunk counted its row, once
    const processed = (await metric(server.url, 'bizcheck_batch_rows_processed_total')) + (await metric(worker.url, 'bizcheck_batch_rows_processed_total'));
    assert.equal(processed, 1);
    assert.equal(await metric(server.url, 'bizcheck_batch_queue_chunks', { state: 'pending' }), 0);
    assert.equal(await metric(server.url, 'bizcheck_process_role', { role: 'all' }), 1);
    assert.equal((await fetch(`${quiet.url}/metrics`)).status, 404);
  });

  test('bizcheck serve --role worker: probes and metrics only, no API', T, async () => {
    const ready = await call(worker.url, 'GET', '/readyz');
    assert.equal(ready.status, 200);
    assert.equal(ready.body.role, 'worker');
    const { apiKey } = await createAccount(db.store, 'ops-worker@example.com', 'business');
    for (const [method, path] of [['POST', '/verify'], ['GET', '/me'], ['POST', '/batch'], ['GET', '/docs']] as const) {
      assert.equal((await call(worker.url, method, path, { key: apiKey })).status, 404, `${method} ${path}`);
    }
    assert.equal(await metric(worker.url, 'bizcheck_process_role', { role: 'worker' }), 1);
    assert.equal((await call(quiet.url, 'GET', '/readyz')).body.role, 'api');
  });

  test('readiness is 503 while the database is unreachable and 200 again when it is back', T, async () => {
    assert.equal((await call(server.url, 'GET', '/readyz')).status, 200);
    await relay.down();
    const down = await call(server.url, 'GET', '/readyz');
    assert.equal(down.status, 503, JSON.stringify(down.body));
    assert.equal(down.body.database, 'down');
    assert.equal(down.body.code, 'not_ready');
    assert.equal((await call(server.url, 'GET', '/healthz')).status, 200, 'alive all the same');
    assert.equal((await fetch(`${server.url}/metrics`)).status, 200, 'metrics still served');
    await relay.up();
    const ready = await eventually('ready again', 50, 200, async () => {
      const r = await call(server.url, 'GET', '/readyz');
      return r.status === 200 ? r : undefined;
    });
    assert.equal(ready.body.database, 'up');
    assert.ok(server.alive(), server.errors());
  });
});
