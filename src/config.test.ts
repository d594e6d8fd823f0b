import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { ConfigError, loadConfig } from './config.ts';

test('defaults run the embedded store on port 8080 with the sandbox registry', () => {
  const c = loadConfig({});
  assert.equal(c.port, 8080);
  assert.equal(c.host, '127.0.0.1');
  assert.deepEqual(c.store, { kind: 'sqlite', file: path.resolve('./data/bizcheck.db') });
  assert.equal(c.nts.serviceKey, undefined);
});

test('a postgres:// DATABASE_URL switches the store', () => {
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).store, { kind: 'postgres', url: 'postgres://u@h:5432/db', namedStatements: 256 });
  assert.equal(loadConfig({ DATABASE_URL: 'postgresql://h/db' }).store.kind, 'postgres');
  // behind a pooler that cannot keep a session's statements
  assert.deepEqual(loadConfig({ DATABASE_URL: 'postgres://h/db', DATABASE_NAMED_STATEMENTS: '0' }).store, { kind: 'postgres', url: 'postgres://h/db', namedStatements: 0 });
});

test('bad values stop start-up with a message naming each variable', () => {
  assert.throws(
    () => loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://h/db', NTS_BASE_URL: 'ftp://x' }),
    (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /PORT="eighty"/);
      assert.match(err.message, /DATABASE_URL="mysql:\/\/h\/db"/);
      assert.match(err.message, /NTS_BASE_URL="ftp:\/\/x"/);
      return true;
    },
  );
  assert.throws(() => loadConfig({ PORT: '70000' }), /PORT/);
  assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL="loud"/);
});

test('empty variables count as unset', () => {
  assert.equal(loadConfig({ PORT: '', NTS_SERVICE_KEY: '  ' }).port, 8080);
  assert.equal(loadConfig({ NTS_SERVICE_KEY: '' }).nts.serviceKey, undefined);
});

test('roles, the shared NTS budget and metrics: defaults, values and refusals', () => {
  const d = loadConfig({});
  assert.equal(d.role, 'all');
  assert.deepEqual(d.upstream, { maxCallsPerSecond: 0, breakerHalfOpenMs: 10_000, maxNumbersPerDay: 1_000_000 });
  assert.equal(d.batch.upstreamWaitMs, 6 * 3600_000);
  assert.deepEqual(d.metrics, { enabled: true });
  const c = loadConfig({ BIZCHECK_ROLE: 'worker', NTS_MAX_CALLS_PER_SECOND: '30', NTS_BREAKER_HALF_OPEN_SECONDS: '2', METRICS_ENABLED: 'false', NTS_MAX_NUMBERS_PER_DAY: '0' });
  assert.equal(c.role, 'worker');
  assert.deepEqual(c.upstream, { maxCallsPerSecond: 30, breakerHalfOpenMs: 2000, maxNumbersPerDay: 0 });
  assert.throws(() => loadConfig({ NTS_MAX_NUMBERS_PER_DAY: 'lots' }), /NTS_MAX_NUMBERS_PER_DAY/);
  assert.deepEqual(c.metrics, { enabled: false });
  assert.throws(() => loadConfig({ BIZCHECK_ROLE: 'scheduler' }), /BIZCHECK_ROLE="scheduler"/);
  assert.throws(() => loadConfig({ NTS_MAX_CALLS_PER_SECOND: '-1' }), /NTS_MAX_CALLS_PER_SECOND/);
  assert.throws(() => loadConfig({ METRICS_ENABLED: 'yes' }), /METRICS_ENABLED="yes"/);
});
