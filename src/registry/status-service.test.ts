import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkDigitOf } from '../domain/bizno.ts';
import { startFakeNts } from './fake-nts-server.ts';
import { SandboxRegistry, sandboxRecord } from './sandbox.ts';
import { createRegistry, createStatusService } from './status-service.ts';
import { type CachedStatus, type NtsRecord, type Registry, type StatusCache, UpstreamError } from '../domain/status.ts';

const T = { timeout: 15_000 };
const A = '1248100998';
const B = '3333333336';
const C = '2222222227';
const T0 = new Date('2026-11-01T00:00:00Z');
const iso = (ms: number): string => new Date(T0.getTime() + ms).toISOString();

/** In-memory StatusCache that counts its reads and writes. */
class MemoryCache implements StatusCache {
  readonly entries = new Map<string, CachedStatus>();
  reads = 0;
  writes: CachedStatus[][] = [];
  async getCachedStatuses(bnos: readonly string[]): Promise<Map<string, CachedStatus>> {
    this.reads++;
    return new Map(bnos.flatMap((b) => { const e = this.entries.get(b); return e ? [[b, e] as const] : []; }));
  }
  async putCachedStatuses(entries: readonly CachedStatus[]): Promise<void> {
    this.writes.push([...entries]);
    for (const e of entries) this.entries.set(e.record.b_no, e);
  }
  put(bno: string, expiresInMs: number, source: 'nts' | 'sandbox' = 'nts', record: NtsRecord = sandboxRecord(bno)): void {
    this.entries.set(bno, { record, source, checkedAt: iso(-3_600_000), expiresAt: iso(expiresInMs) });
  }
}

/** A registry stub whose health we switch; records the numbers of every call. */
class StubRegistry implements Registry {
  readonly source = 'nts' as const;
  calls: string[][] = [];
  down = false;
  async lookup(bnos: readonly string[]): Promise<Map<string, NtsRecord>> {
    this.calls.push([...bnos]);
    if (this.down) throw new UpstreamError('http_5xx', 'NTS down', { retryable: true, httpStatus: 500 });
    return new Map(bnos.map((b) => [b, sandboxRecord(b)]));
  }
  async close(): Promise<void> {}
}

function setup(ttlSeconds = 3_600) {
  const cache = new MemoryCache();
  const registry = new StubRegistry();
  const service = createStatusService({ registry, cache, ttlSeconds, now: () => T0 });
  return { cache, registry, service };
}

describe('status service', () => {
  test('fresh cache hit: no upstream call', T, async () => {
    const { cache, registry, service } = setup();
    cache.put(A, 60_000);
    const { answers, unanswered } = await service.lookup([A, A]);
    assert.equal(registry.calls.length, 0);
    assert.equal(unanswered.size, 0);
    assert.deepEqual(answers.get(A), { record: sandboxRecord(A), source: 'nts', checkedAt: iso(-3_600_000), fromCache: true, stale: false });
    assert.equal(cache.reads, 1);
  });

  test('a single lookup keeps its answers in memory; a bulk job\'s lookup, however small, does not', T, async () => {
    const { cache, registry, service } = setup();
    cache.put(A, 60_000);
    cache.put(B, 60_000);
    await service.lookup([A]);
    await service.lookup([A]);
    assert.equal(cache.reads, 1, 'the second single lookup was answered from memory');
    // a batch chunk's few neighbours: read from the store each time, not kept
    await service.lookup([B], { bulk: true });
    await service.lookup([B], { bulk: true });
    await service.lookup([C], { bulk: true });
    assert.equal(cache.reads, 4);
    await service.lookup([B]);
    await service.lookup([C]);
    assert.equal(cache.reads, 6, 'nothing a bulk lookup read or asked was kept for single lookups');
    assert.deepEqual(registry.calls, [[C]]);
  });

  test('misses go upstream in one call and are written back with expiresAt = now + ttl', T, async () => {
    const { cache, registry, service } = setup(600);
    cache.put(A, 60_000);
    cache.put(B, -1); // expired
    const { answers } = await service.lookup([A, B, C]);
    assert.deepEqual(registry.calls, [[B, C]]);
    assert.equal(cache.reads, 1, 'one batched cache read');
    assert.deepEqual(answers.get(C), { record: sandboxRecord(C), source: 'nts', checkedAt: T0.toISOString(), fromCache: false, stale: false });
    assert.equal(answers.get(B)?.fromCache, false);
    assert.deepEqual(cache.writes.flat().map((e) => [e.record.b_no, e.checkedAt, e.expiresAt]),
      [[B, T0.toISOString(), iso(600_000)], [C, T0.toISOString(), iso(600_000)]]);
  });

  test('expired entry and upstream down: stale answer', T, async () => {
    const { cache, registry, service } = setup();
    cache.put(B, -1);
    registry.down = true;
    const { answers, unanswered } = await service.lookup([B]);
    assert.equal(registry.calls.length, 1);
    assert.equal(unanswered.size, 0);
    assert.equal(answers.get(B)?.stale, true);
    assert.equal(answers.get(B)?.fromCache, true);
    assert.equal(cache.writes.length, 0);
  });

  test('nothing cached and upstream down: unanswered with the upstream error', T, async () => {
    const { registry, service } = setup();
    registry.down = true;
    const { answers, unanswered } = await service.lookup([C]);
    assert.equal(answers.size, 0);
    assert.equal(unanswered.get(C)?.fault, 'http_5xx');
  });

  test('offline: no upstream call; fresh, stale and missing are each flagged', T, async () => {
    const { cache, registry, service } = setup();
    cache.put(A, 60_000);
    cache.put(B, -1);
    const { answers, unanswered } = await service.lookup([A, B, C], { offline: true });
    assert.equal(registry.calls.length, 0);
    assert.equal(answers.get(A)?.stale, false);
    assert.equal(answers.get(B)?.stale, true);
    assert.equal(unanswered.get(C)?.fault, 'circuit_open');
  });

  test('a cached answer from the other source is ignored', T, async () => {
    const { cache, registry, service } = setup();
    cache.put(A, 60_000, 'sandbox');
    const { answers } = await service.lookup([A]);
    assert.deepEqual(registry.calls, [[A]]);
    assert.equal(answers.get(A)?.source, 'nts');
  });

  test('a failed cache write is reported, the answer still returned', T, async () => {
    const cache = new MemoryCache();
    cache.putCachedStatuses = async () => { throw new Error('disk full'); };
    const errors: unknown[] = [];
    const service = createStatusService({ registry: new StubRegistry(), cache, ttlSeconds: 60, now: () => T0, onCacheWriteError: (e) => errors.push(e) });
    assert.equal((await service.lookup([A])).answers.get(A)?.fromCache, false);
    assert.equal(errors.length, 1);
  });

  test('sandbox registry goes through the cache too; health says sandbox', T, async () => {
    const cache = new MemoryCache();
    const service = createStatusService({ registry: new SandboxRegistry(), cache, ttlSeconds: 60, now: () => T0 });
    assert.equal((await service.lookup([B])).answers.get(B)?.record.b_stt_cd, '03');
    assert.equal(cache.entries.get(B)?.source, 'sandbox');
    assert.equal((await service.lookup([B])).answers.get(B)?.fromCache, true);
    assert.deepEqual(service.health(), { upstream: 'sandbox' });
    assert.equal(createRegistry({ baseUrl: 'http://127.0.0.1:1' }).source, 'sandbox');
    assert.equal(createRegistry({ baseUrl: 'http://127.0.0.1:1', serviceKey: '' }).source, 'sandbox');
  });
});

describe('status service over the real client and the fake NTS', () => {
  test('a single lookup is answered from memory the next time; the numbers of a bulk lookup are not kept there', T, async () => {
    const { cache, registry, service } = setup();
    const bulk = Array.from({ length: 101 }, (_, i) => { const nine = String(100_000_000 + i); return nine + checkDigitOf(nine); });
    await service.lookup([A]); // upstream, then kept in memory
    await service.lookup(bulk); // upstream, written to the shared cache only
    assert.equal(registry.calls.length, 2);
    const reads = cache.reads;
    await service.lookup([A]);
    assert.equal(cache.reads, reads, 'the single lookup came from memory');
    const again = await service.lookup([bulk[0]!]);
    assert.equal(cache.reads, reads + 1, 'a number of the bulk lookup is read from the shared cache');
    assert.equal(again.answers.get(bulk[0]!)?.fromCache, true);
    assert.equal(registry.calls.length, 2, 'and never asked upstream again');
    await service.lookup([bulk[0]!]);
    assert.equal(cache.reads, reads + 1, 'once read singly, it is kept in memory');
  });

  test('a number another lookup has just had from upstream, its write not yet done, is not asked again', T, async () => {
    // the store's write of the first lookup's answers is held until the second has read the store
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    class SlowWrites extends MemoryCache {
      #first = true;
      override async putCachedStatuses(entries: readonly CachedStatus[]): Promise<void> {
        if (this.#first) {
          this.#first = false;
          await held;
        }
        return super.putCachedStatuses(entries);
      }
    }
    const cache = new SlowWrites();
    const registry = new StubRegistry();
    const service = createStatusService({ registry, cache, ttlSeconds: 3_600, now: () => T0 });
    const bulk = Array.from({ length: 150 }, (_, i) => { const nine = String(100_000_000 + i); return nine + checkDigitOf(nine); });
    const first = service.lookup(bulk);
    while (registry.calls.length === 0) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    const second = await service.lookup([bulk[7]!, B]);
    assert.deepEqual(registry.calls.slice(1), [[B]], 'only the number nobody had asked went upstream');
    assert.deepEqual(second.answers.get(bulk[7]!)?.record, sandboxRecord(bulk[7]!));
    release();
    assert.equal((await first).answers.get(bulk[7]!)?.checkedAt, second.answers.get(bulk[7]!)?.checkedAt, 'one answer, one check time');
  });

  test('1,000 concurrent single lookups become 10 upstream calls', T, async () => {
    const fake = await startFakeNts({ serviceKey: 'key', latencyMs: 20 });
    const registry = createRegistry({ serviceKey: 'key', baseUrl: fake.url });
    const service = createStatusService({ registry, cache: new MemoryCache(), ttlSeconds: 60, now: () => T0 });
    try {
      const bnos = Array.from({ length: 1_000 }, (_, i) => { const nine = String(500_000_000 + i); return nine + String(checkDigitOf(nine)); });
      const results = await Promise.all(bnos.map((b) => service.lookup([b])));
      assert.equal(fake.calls, 10);
      assert.ok(fake.received.every((r) => r.length === 100));
      results.forEach((r, i) => assert.deepEqual(r.answers.get(bnos[i]!)?.record, sandboxRecord(bnos[i]!)));
      assert.deepEqual(service.health(), { upstream: 'closed' });
    } finally {
      await service.close();
      await fake.close();
    }
  });

  test('upstream outage: retried, stale fallback, breaker opens and fails fast', T, async () => {
    const fake = await startFakeNts({ serviceKey: 'key', errorRate: 1 });
    const cache = new MemoryCache();
    cache.put(B, -1);
    const registry = createRegistry({
      serviceKey: 'key', baseUrl: fake.url, maxRetries: 1, initialDelayMs: 1, maxDelayMs: 5, breakerThreshold: 2, halfOpenAfterMs: 60_000,
    });
    const service = createStatusService({ registry, cache, ttlSeconds: 60, now: () => T0 });
    try {
      const first = await service.lookup([A, B]);
      assert.equal(fake.calls, 2, 'one call, retried once');
      assert.equal(first.unanswered.get(A)?.fault, 'http_5xx');
      assert.equal(first.answers.get(B)?.stale, true);
      assert.deepEqual(service.health(), { upstream: 'open' });
      const second = await service.lookup([C]);
      assert.equal(second.unanswered.get(C)?.fault, 'circuit_open');
      assert.equal(fake.calls, 2, 'no call while the breaker is open');
      await assert.rejects(registry.lookup([C]), (e) => e instanceof UpstreamError && e.fault === 'circuit_open');
    } finally {
      await service.close();
      await fake.close();
    }
  });

  test('close() abandons calls in flight instead of waiting out timeouts', T, async () => {
    const fake = await startFakeNts({ serviceKey: 'key', timeoutRate: 1 });
    const registry = createRegistry({ serviceKey: 'key', baseUrl: fake.url, timeoutMs: 10_000 });
    try {
      const pending = registry.lookup([A]);
      while (fake.calls < 1) await new Promise((r) => setTimeout(r, 5));
      const t0 = Date.now();
      // watched before close(), which may take a moment (it ends the calls' thread) after failing it
      const failed = assert.rejects(pending, UpstreamError);
      await registry.close();
      await failed;
      assert.ok(Date.now() - t0 < 2_000);
    } finally {
      await fake.close();
    }
  });
});
