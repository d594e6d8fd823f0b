import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { installHttpMetrics } from './http.ts';
import { observedStatus } from './instrument.ts';
import { Metrics } from './metrics.ts';
import type { StatusService } from '../domain/status.ts';

const line = (text: string, start: string) => text.split('\n').find((l) => l.startsWith(start));

test('requests are counted by route pattern and status, never by the ids in the URL', async () => {
  const metrics = new Metrics({ role: 'api', defaultMetrics: false });
  const app = Fastify();
  installHttpMetrics(app, metrics);
  app.get('/things/:id', async () => ({ ok: true }));
  await app.inject({ method: 'GET', url: '/things/secret-id-1' });
  await app.inject({ method: 'GET', url: '/things/secret-id-2' });
  await app.inject({ method: 'GET', url: '/nowhere/secret-id-3' });
  const page = await app.inject({ method: 'GET', url: '/metrics' });
  assert.match(page.headers['content-type'] as string, /^text\/plain; version=0\.0\.4/);
  assert.doesNotMatch(page.body, /secret-id/);
  assert.equal(line(page.body, 'bizcheck_http_requests_total{method="GET",route="/things/:id",status="200"}'), 'bizcheck_http_requests_total{method="GET",route="/things/:id",status="200"} 2');
  assert.ok(line(page.body, 'bizcheck_http_requests_total{method="GET",route="unmatched",status="404"} 1'));
  await app.close();
});

test('scrape-time gauges read their sources; a failing source leaves the page whole', async () => {
  const metrics = new Metrics({ role: 'worker', defaultMetrics: false });
  let fail = false;
  metrics.watch({
    upstream: () => 'open',
    workQueue: async () => {
      if (fail) throw new Error('database down');
      return { pendingChunks: 7, leasedChunks: 2 };
    },
  });
  let text = await metrics.text();
  assert.ok(line(text, 'bizcheck_batch_queue_chunks{state="pending"} 7'));
  assert.ok(line(text, 'bizcheck_upstream_breaker_state 2'));
  fail = true;
  text = await metrics.text();
  assert.ok(line(text, 'bizcheck_batch_queue_chunks{state="pending"} 7'), 'last value kept');
  assert.ok(line(text, 'bizcheck_process_role{role="worker"} 1'));
});

test('status lookups are counted by where the answer came from, and the upstream by outcome', async () => {
  const metrics = new Metrics({ role: 'all', defaultMetrics: false });
  const record = { b_no: '1', b_stt: '', b_stt_cd: '01', tax_type: '', tax_type_cd: '', end_dt: '', utcc_yn: '', tax_type_change_dt: '', invoice_apply_dt: '', rbf_tax_type: '', rbf_tax_type_cd: '' } as const;
  const answer = (fromCache: boolean, stale: boolean) => ({ record, source: 'nts' as const, checkedAt: '', fromCache, stale });
  const status: StatusService = {
    lookup: async () => ({
      answers: new Map([['1', answer(true, false)], ['2', answer(true, false)], ['3', answer(false, false)], ['4', answer(true, true)]]),
      unanswered: new Map(),
    }),
    source: 'sandbox',
    health: () => ({ upstream: 'closed' }),
    close: async () => {},
  };
  await observedStatus(status, metrics).lookup(['1', '2', '3', '4']);
  const observer = metrics.upstreamObserver();
  observer.attempt('ok', 0.1);
  observer.attempt('timeout', 5);
  observer.breaker('open');
  const text = await metrics.text();
  for (const expected of [
    'bizcheck_status_lookups_total{source="cache"} 2',
    'bizcheck_status_lookups_total{source="upstream"} 1',
    'bizcheck_status_lookups_total{source="stale_cache"} 1',
    'bizcheck_upstream_attempts_total{outcome="timeout"} 1',
    'bizcheck_upstream_breaker_transitions_total{to="open"} 1',
  ]) assert.ok(line(text, expected), expected);
});
