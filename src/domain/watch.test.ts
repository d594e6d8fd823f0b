import assert from 'node:assert/strict';
import { test } from 'node:test';
import { changeOf, eventsOf, keepsEvidence, nextCheckAt, retryAt, watchEventBody, type WatchState } from './watch.ts';

const s = (biz_status: WatchState['biz_status'], grade: string | null = null, bounce_prob: number | null = null): WatchState => ({
  biz_status, grade, bounce_prob, action: null, closed_on: biz_status === 'closed' ? '2026-11-20' : null,
});

test('the first answered check starts the timeline and raises no event', () => {
  const c = changeOf(null, s('active'));
  assert.deepEqual(c, { previous: null, current: s('active') });
  assert.deepEqual(eventsOf(c), []);
});

test('only status and grade count as changes; a moved probability within a grade does not', () => {
  assert.equal(changeOf(s('active', 'B', 0.1), s('active', 'B', 0.12)), null);
  assert.deepEqual(changeOf(s('active', 'B'), s('active', 'C'))?.previous, { grade: 'B' });
  assert.deepEqual(changeOf(s('active', 'B'), s('closed', 'E'))?.previous, { biz_status: 'active', grade: 'B' });
});

test('watch.closed is raised on the transition into closed only', () => {
  assert.deepEqual(eventsOf(changeOf(s('active'), s('closed'))), ['watch.changed', 'watch.closed']);
  assert.deepEqual(eventsOf(changeOf(s('suspended'), s('closed'))), ['watch.changed', 'watch.closed']);
  // closed already, the grade moves: a change, not a second closure
  assert.deepEqual(eventsOf(changeOf(s('closed', 'D'), s('closed', 'E'))), ['watch.changed']);
  assert.deepEqual(eventsOf(changeOf(s('closed'), s('active'))), ['watch.changed', 'watch.reopened']);
  assert.deepEqual(eventsOf(null), []);
});

test('each transition has its own event, told once', () => {
  const t = (over: Partial<WatchState>, base: WatchState = s('active')): WatchState => ({ ...base, tax_type_cd: '01', tax_type: '일반', tax_type_change_dt: null, ...over });
  assert.deepEqual(eventsOf(changeOf(t({}), t({ biz_status: 'suspended' }))), ['watch.changed', 'watch.suspended']);
  assert.deepEqual(eventsOf(changeOf(t({ biz_status: 'suspended' }), t({}))), ['watch.changed', 'watch.reopened']);
  assert.deepEqual(eventsOf(changeOf(t({}), t({ biz_status: 'converted' }))), ['watch.changed', 'watch.converted']);
  assert.deepEqual(eventsOf(changeOf(t({ biz_status: 'unregistered' }), t({}))), ['watch.changed'], 'registered at last is not a reopening');
  const taxed = changeOf(t({}), t({ tax_type_cd: '02', tax_type: '간이', tax_type_change_dt: '2026-07-01' }));
  assert.deepEqual(eventsOf(taxed), ['watch.changed', 'watch.tax_type_changed']);
  assert.deepEqual(taxed?.previous, { tax_type_cd: '01', tax_type: '일반' });
  const closed = t({ biz_status: 'closed', closed_on: '2026-11-20' });
  assert.deepEqual(eventsOf(changeOf(closed, { ...closed, closed_on: '2026-11-10' })), ['watch.changed', 'watch.closed_on_corrected']);
  assert.deepEqual(changeOf(t({}), closed)?.previous, { biz_status: 'active' }, 'a closure date arriving with the closure is not a correction');
  // a state stored before tax types were kept has nothing to compare with
  assert.equal(changeOf(s('active'), t({})), null);
});

test('the next check is one plan interval later', () => {
  assert.equal(nextCheckAt(new Date('2026-11-22T00:00:00Z'), 24).toISOString(), '2026-11-23T00:00:00.000Z');
  assert.equal(nextCheckAt(new Date('2026-11-22T00:00:00Z'), 1).toISOString(), '2026-11-22T01:00:00.000Z');
});

test('retries after unanswered checks back off exponentially with jitter, never beyond the interval', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  const wait = (failures: number, r: number, hours = 24) => retryAt(now, failures, hours, () => r).getTime() - now.getTime();
  assert.equal(wait(1, 0.5), 60_000);
  assert.equal(wait(2, 0.5), 120_000);
  assert.equal(wait(3, 0.5), 240_000);
  assert.equal(wait(1, 0), 48_000);
  assert.equal(wait(1, 1), 72_000);
  assert.equal(wait(30, 1), 24 * 3600_000);
  assert.equal(wait(10, 0.5, 1), 3600_000, 'an hourly watch is retried at least hourly');
});

test('event bodies carry the watch, its state and the previous attributes', () => {
  const change = changeOf(s('active', 'B'), s('closed', 'E'))!;
  const body = JSON.parse(watchEventBody('watch.closed', { watch_id: 'wch_1', biz_no: '1248100998', name: null, address: null }, change, '2026-11-22T00:00:00.000Z'));
  assert.deepEqual(body, {
    type: 'watch.closed',
    timestamp: '2026-11-22T00:00:00.000Z',
    data: {
      watch_id: 'wch_1', biz_no: '1248100998', name: null, address: null, biz_status: 'closed', grade: 'E', bounce_prob: null, action: null,
      closed_on: '2026-11-20', checked_at: '2026-11-22T00:00:00.000Z', previous_attributes: { biz_status: 'active', grade: 'B' },
    },
  });
});

const verifiedAt = (verified_at: string | null): WatchState => ({ biz_status: 'active', grade: null, bounce_prob: null, action: null, closed_on: null, verified_at });

test('a check keeps the evidence of its answer when it is the first, when it changed something, and once a day otherwise', () => {
  const at = new Date('2026-11-25T12:00:00Z');
  const state = verifiedAt;
  assert.equal(keepsEvidence(null, false, at), true, 'the first answered check');
  assert.equal(keepsEvidence(state('2026-11-25T11:00:00Z'), true, at), true, 'a change');
  assert.equal(keepsEvidence(state('2026-11-25T11:00:00Z'), false, at), false, 'an hour after the last kept');
  assert.equal(keepsEvidence(state('2026-11-24T12:00:00Z'), false, at), true, 'a day after');
  assert.equal(keepsEvidence(state(null), false, at), true, 'a state from before evidence');
});
