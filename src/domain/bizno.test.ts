import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDigitOf, entityKindOf, formatWithHyphens, hasValidCheckDigit, isCorporate, isTenDigits, normaliseFromFile } from './bizno.ts';

test('real numbers pass the check digit (삼성전자 124-81-00998, 네이버 220-81-62517)', () => {
  assert.equal(hasValidCheckDigit('1248100998'), true);
  assert.equal(hasValidCheckDigit('2208162517'), true);
});

test('a changed digit fails the check digit', () => {
  for (let i = 0; i < 10; i++) {
    const digits = '1248100998'.split('');
    digits[i] = String((Number(digits[i]) + 1) % 10);
    assert.equal(hasValidCheckDigit(digits.join('')), false, `digit ${i} changed`);
  }
});

test('0000000000 is invalid even though its arithmetic works out', () => {
  assert.equal(checkDigitOf('000000000'), 0);
  assert.equal(hasValidCheckDigit('0000000000'), false);
});

test('only ten ASCII digits are a number', () => {
  for (const bad of ['124810099', '12481009981', '124-81-00998', '124810099a', '１２４８１００９９８', ' 1248100998', '']) {
    assert.equal(isTenDigits(bad), false, bad);
    assert.equal(hasValidCheckDigit(bad), false, bad);
  }
});

test('the ninth digit carry is part of the check (x*5 ≥ 10)', () => {
  // 9th digit 9: 9*5 = 45 adds 4 beyond the weighted sum
  const first9 = '123456789';
  const d = checkDigitOf(first9);
  assert.equal(hasValidCheckDigit(first9 + d), true);
  assert.equal(hasValidCheckDigit(first9 + ((d + 1) % 10)), false);
});

test('the middle digits tell individual from corporate', () => {
  assert.equal(entityKindOf('1234567891'), 'individual_taxable');
  assert.equal(entityKindOf('1249112345'), 'individual_exempt');
  assert.equal(entityKindOf('1248100998'), 'corporate_head');
  assert.equal(entityKindOf('1248512345'), 'corporate_branch');
  assert.equal(entityKindOf('1248412345'), 'foreign_corporate');
  assert.equal(entityKindOf('1248212345'), 'nonprofit');
  assert.equal(entityKindOf('1248012345'), 'other');
  assert.equal(isCorporate('corporate_branch'), true);
  assert.equal(isCorporate('individual_taxable'), false);
});

test('spreadsheet forms are normalised', () => {
  assert.equal(normaliseFromFile('124-81-00998'), '1248100998');
  assert.equal(normaliseFromFile(" '1248100998 "), '1248100998');
  assert.equal(normaliseFromFile('124 81 00998'), '1248100998');
  assert.equal(normaliseFromFile(1248100998), '1248100998');
  assert.equal(normaliseFromFile(248100998), '0248100998', 'Excel dropped the leading zero');
  assert.equal(normaliseFromFile(12.5), null);
  assert.equal(normaliseFromFile('12-34'), null);
  assert.equal(normaliseFromFile(null), null);
  assert.equal(formatWithHyphens('1248100998'), '124-81-00998');
});
