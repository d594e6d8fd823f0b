// NTS_MAX_CALLS_PER_SECOND holds across every process on one PostgreSQL (and within the single
// process of the embedded store): counted where it matters, at the fake NTS, per second.
import assert from 'node:assert/strict';
import { after, before, test, type TestContext } from 'node:test';
import { createAccount } from '../../src/accounts/accounts.ts';
import { startFakeNts, type FakeNts } from '../../src/registry/fake-nts-server.ts';
import { call } from '../helpers/server.ts';
import { metric, numbers, openTestDb, Processes, reliabilitySuite, type ServerProcess, type TestDb } from './helpers.ts';

const T = { timeout: 90_000 };
const LIMIT = 5;
const PER_STREAM = 6;

for (const kind of ['postgres', 'sqlite'] as const) {
  // three processes on PostgreSQL; the embedded store has one process, asked by three clients at once
  const streams = 3;
  const processes = kind === 'postgres' ? 3 : 1;
  reliabilitySuite(`the shared NTS budget [${kind}]`, { needsPostgres: kind === 'postgres' }, () => {
    let db: TestDb;
    let nts: FakeNts;
    const procs = new Processes();
    let servers: ServerProcess[];

    before(async () => {
      db = await openTestDb(kind);
      nts = await startFakeNts({ latencyMs: 20 });
      const env = { ...db.env, NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url, NTS_MAX_CALLS_PER_SECOND: String(LIMIT) };
      servers = await Promise.all(Array.from({ length: processes }, (_, i) => procs.start(`server-${i + 1}`, 'api', env)));
    });
    after(async () => {
      await procs.stopAll();
      await nts?.close();
      await db?.cleanup();
    });

    test(`calls to NTS stay within ${LIMIT} per second across ${processes} process(es); lookups wait for their slot instead of failing`, T, async (t: TestContext) => {
      const { apiKey } = await createAccount(db.store, `budget-${kind}@example.com`, 'business');
      // each stream asks for uncached numbers one after another: without the budget, a call every ~25 ms per stream
      const statuses = await Promise.all(
        Array.from({ length: streams }, async (_, s) => {
          const server = servers[s % servers.length]!;
          const out: number[] = [];
          for (const b_no of numbers(PER_STREAM, 10 + s)) out.push((await call(server.url, 'POST', '/verify', { key: apiKey, body: { b_no } })).status);
          return out;
        }),
      );
      assert.deepEqual(statuses.flat(), Array.from({ length: streams * PER_STREAM }, () => 200), 'every lookup answered');

      const arrivals = nts.arrivals.toSorted((a, b) => a - b);
      const perSecond = new Map<number, number>();
      for (const a of arrivals) perSecond.set(Math.floor(a / 1000), (perSecond.get(Math.floor(a / 1000)) ?? 0) + 1);
      const busiest = Math.max(...perSecond.values());
      const spanMs = arrivals.at(-1)! - arrivals[0]!;
      t.diagnostic(`${arrivals.length} calls in ${spanMs} ms; per calendar second: ${[...perSecond.values()].join(', ')}`);
      // Slots are 1/LIMIT s apart; a call's trip from its slot to the fake server takes a few ms
      // that vary, which can carry one call over a second's edge: hence LIMIT + 1. Without a
      // shared budget the processes would send LIMIT each, or (no budget) everything at once.
      assert.ok(busiest <= LIMIT + 1, `busiest second had ${busiest} calls`);
      // and the calls really were spread out: n calls need (n - 1) intervals. Each call leaves
      // after its slot, never before, by however long its process takes to hear the reservation
      // and wake up: on a loaded two-core machine (three servers, PostgreSQL and the runner) that
      // was 163 ms for one call once, so allow two intervals' worth. Unbudgeted, the same calls
      // take well under a second.
      assert.ok(spanMs >= ((arrivals.length - 3) * 1000) / LIMIT, `${arrivals.length} calls within ${spanMs} ms`);
      // and the demand was real: every lookup's number reached NTS, in however few calls the
      // coalescer packed them (a loaded machine packs more into each while they wait for a slot)
      const asked = new Set(nts.received.flat()).size;
      assert.ok(asked >= streams * PER_STREAM * 0.9, `demand was real: ${asked} numbers asked in ${arrivals.length} calls`);
      const waited = await Promise.all(servers.map((s) => metric(s.url, 'bizcheck_upstream_budget_wait_seconds_count')));
      assert.equal(waited.reduce((a, b) => a + b, 0), arrivals.length, 'every call went through the budget');
    });
  });
}
