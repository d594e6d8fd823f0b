import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, passwordProblem, verifyAgainstNothing, verifyPassword } from './password.ts';
import { csrfToken, csrfTokenMatches, hashSessionId, looksLikeSessionId, newSessionId } from './session-token.ts';

test('a password verifies against its own hash and no other', async () => {
  const stored = await hashPassword('correct horse battery');
  assert.match(stored, /^scrypt\$65536\$8\$2\$[\w-]{22}\$[\w-]{43}$/);
  assert.equal(await verifyPassword('correct horse battery', stored), true);
  assert.equal(await verifyPassword('correct horse batterY', stored), false);
  assert.equal(await verifyPassword('', stored), false);
});

test('each hash has its own salt', async () => {
  const [a, b] = await Promise.all([hashPassword('same password here'), hashPassword('same password here')]);
  assert.notEqual(a, b);
});

test('compatibility forms of a character are the same password (NFKC)', async () => {
  const stored = await hashPassword('ＡＢＣ password 123');
  assert.equal(await verifyPassword('ABC password 123', stored), true);
});

test('a tampered or foreign hash never verifies', async () => {
  const stored = await hashPassword('correct horse battery');
  assert.equal(await verifyPassword('correct horse battery', stored.replace('$65536$', '$65535$')), false, 'N not a power of two');
  assert.equal(await verifyPassword('correct horse battery', stored.replace('$65536$', '$1073741824$')), false, 'N too large');
  assert.equal(await verifyPassword('correct horse battery', 'bcrypt$whatever'), false);
  assert.equal(await verifyAgainstNothing('correct horse battery'), false);
});

test('passwords are measured in characters as people count them', () => {
  assert.match(passwordProblem('short') ?? '', /at least 10/);
  assert.equal(passwordProblem('한국어비밀번호입니다'), null, 'ten Hangul syllables');
  assert.match(passwordProblem('한국어비밀번호예요') ?? '', /at least 10/, 'nine');
  assert.match(passwordProblem('x'.repeat(257)) ?? '', /at most 256/);
});

test('session ids are 256 random bits; the CSRF token belongs to one session', () => {
  const a = newSessionId();
  const b = newSessionId();
  assert.ok(looksLikeSessionId(a) && looksLikeSessionId(b));
  assert.notEqual(a, b);
  assert.equal(looksLikeSessionId('attacker-chosen'), false);
  assert.match(hashSessionId(a), /^[0-9a-f]{64}$/);
  assert.equal(csrfTokenMatches(a, csrfToken(a)), true);
  assert.equal(csrfTokenMatches(a, csrfToken(b)), false);
  assert.equal(csrfTokenMatches(a, ''), false);
});
