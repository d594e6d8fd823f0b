import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { test } from 'node:test';
import { MAX_ATTEMPTS, newSigningSecret, nextAttemptAt, signWebhook, verifyWebhook } from './webhook.ts';

test('signatures follow Standard Webhooks: HMAC-SHA256 of id.timestamp.body with the decoded secret', () => {
  // the Standard Webhooks reference vector
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const sig = signWebhook(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
  assert.equal(sig, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  const manual = createHmac('sha256', Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64')).update('msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}').digest('base64');
  assert.equal(sig, `v1,${manual}`);
});

test('verification accepts the right signature among several and refuses tampering and replays', () => {
  const secret = newSigningSecret();
  const now = new Date('2026-11-22T00:00:00Z');
  const ts = Math.floor(now.getTime() / 1000);
  const body = '{"type":"watch.closed"}';
  const good = signWebhook(secret, 'msg_1', ts, body);
  const h = { id: 'msg_1', timestamp: String(ts), signature: `v1,AAAA ${good}` };
  assert.ok(verifyWebhook(secret, h, body, { now }));
  assert.ok(!verifyWebhook(secret, h, `${body} `, { now }));
  assert.ok(!verifyWebhook(secret, { ...h, id: 'msg_2' }, body, { now }));
  assert.ok(!verifyWebhook(newSigningSecret(), h, body, { now }));
  assert.ok(!verifyWebhook(secret, h, body, { now: new Date(now.getTime() + 301_000) }));
  assert.ok(!verifyWebhook(secret, { ...h, timestamp: 'soon' }, body, { now }));
});

test('secrets are whsec_ and 32 random bytes', () => {
  const s = newSigningSecret();
  assert.match(s, /^whsec_/);
  assert.equal(Buffer.from(s.slice(6), 'base64').length, 32);
  assert.notEqual(s, newSigningSecret());
});

test('retries follow the schedule with ±10 % jitter and stop after the last attempt', () => {
  const now = new Date('2026-11-22T00:00:00Z');
  const wait = (attempt: number, r = 0.5, retryAfterMs?: number) => {
    const at = nextAttemptAt(now, attempt, retryAfterMs, () => r);
    return at === null ? null : at.getTime() - now.getTime();
  };
  assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map((a) => wait(a)), [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000]);
  assert.equal(wait(MAX_ATTEMPTS), null);
  assert.equal(MAX_ATTEMPTS, 10);
  assert.equal(wait(1, 0), 4_500);
  assert.equal(wait(1, 1), 5_500);
  assert.equal(wait(1, 0.5, 60_000), 60_000, 'Retry-After asks for longer');
  assert.equal(wait(3, 0.5, 60_000), 1_800_000, 'the schedule is longer');
  assert.equal(wait(1, 0.5, 10 * 86_400_000), 86_400_000, 'at most a day');
});
