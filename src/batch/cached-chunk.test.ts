import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type CachedGroup, readAsPinned } from './cached-chunk.ts';

const group = (over: Partial<CachedGroup>): CachedGroup => ({
  template: '{"b_stt_cd":"01"}', source: 'nts', expiresAt: '2026-11-26T12:00:00.000Z', rows: 2, distinct: 2, numbers: '["1234567891","1234567892"]',
  checkedAts: '["2026-11-26T09:00:00.000Z","2026-11-26T09:30:00.000Z"]', written: 40, ...over,
});
const pins = { seq: 41, source: 'nts', at: '2026-11-26T10:00:00.000Z' };

test('a chunk reads the answers its job recorded only from entries written by then, of that registry, fresh then', () => {
  assert.equal(readAsPinned([group({}), group({ written: 41 })], pins, 'nts'), true);
  assert.equal(readAsPinned([group({}), group({ written: 0 })], pins, 'nts'), true, 'entries older than the count');
  assert.equal(readAsPinned([group({}), group({ written: 42 })], pins, 'nts'), false, 'an entry written since');
  assert.equal(readAsPinned([group({})], null, 'nts'), false, 'nothing recorded at acceptance');
  assert.equal(readAsPinned([group({})], pins, 'sandbox'), false, 'answers now taken from another registry');
  assert.equal(readAsPinned([group({ source: 'sandbox' })], { ...pins, source: 'sandbox' }, 'sandbox'), true);
  assert.equal(readAsPinned([group({ expiresAt: '2026-11-26T10:00:00.000Z' })], pins, 'nts'), false, 'expired when the job was accepted: not recorded');
  assert.equal(readAsPinned([group({ expiresAt: null })], pins, 'nts'), false);
});
