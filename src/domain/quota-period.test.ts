import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quotaMonth, quotaResetsAt, secondsUntil, toSeoulIso } from './quota-period.ts';

test('the month is the Seoul month: 15:00 UTC on the last day is already next month', () => {
  assert.equal(quotaMonth(new Date('2026-11-30T14:59:59Z')), '2026-11');
  assert.equal(quotaMonth(new Date('2026-11-30T15:00:00Z')), '2026-12');
  assert.equal(quotaMonth(new Date('2026-12-31T15:00:00Z')), '2027-01');
});

test('the quota resets at midnight Seoul time on the 1st', () => {
  const at = quotaResetsAt(new Date('2026-11-21T23:00:00Z'));
  assert.equal(at.toISOString(), '2026-11-30T15:00:00.000Z');
  assert.equal(toSeoulIso(at), '2026-12-01T00:00:00+09:00');
  assert.equal(toSeoulIso(quotaResetsAt(new Date('2026-12-31T16:00:00Z'))), '2027-02-01T00:00:00+09:00');
});

test('seconds until a moment are whole and at least one', () => {
  const now = new Date('2026-11-30T14:59:59.500Z');
  assert.equal(secondsUntil(quotaResetsAt(now), now), 1);
  assert.equal(secondsUntil(new Date(0), now), 1);
});
