import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanText, hasUnsafeChars } from './safe-text.ts';

test('control characters and lone surrogates are unsafe; Hangul, emoji and punctuation are not', () => {
  for (const ok of ['삼성전자 주식회사', '서울 강남구 테헤란로 152, 3층 (역삼동)', '😀 emoji', '', 'ＡＢＣ－１', '\u00a0nbsp', '\ud7a3\ue000']) assert.equal(hasUnsafeChars(ok), false, JSON.stringify(ok));
  for (const bad of ['a\u0000b', 'tab\there', 'line\nbreak', 'del\u007f', 'c1\u0085', 'lone \ud83d high', 'lone \ude00 low', '\ude00\ud83d reversed']) assert.equal(hasUnsafeChars(bad), true, JSON.stringify(bad));
});

test('a file cell is cleaned: breaks and tabs become spaces, other controls go, a lone surrogate becomes U+FFFD', () => {
  assert.equal(cleanText('a\tb\r\nc'), 'a b  c');
  assert.equal(cleanText('a\u0000b\u0085c'), 'abc');
  assert.equal(cleanText('x\ud83dy'), 'x\ufffdy');
  assert.equal(cleanText('😀 그대로'), '😀 그대로');
  const plain = '서울특별시 강남구 테헤란로 152';
  assert.equal(cleanText(plain), plain);
});
