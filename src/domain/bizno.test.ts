import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDigitOf, entityKindOf, formatWithHyphens, hasValidCheckDigit, isCorporate, isTenDigits, normaliseFromFile, transposedNeighbours } from './bizno.ts';

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

test('transposed neighbours: the valid numbers two swapped adjacent digits away', () => {
  // every single wrong digit is caught by the check digit: no valid number is one digit away
  const digits = '0123456789';
  for (const bno of ['1248100998', '2208162517', `305112804${checkDigitOf('305112804')}`]) {
    assert.ok(hasValidCheckDigit(bno));
    for (let i = 0; i < 10; i++) {
      for (const d of digits) if (d !== bno[i]) assert.equal(hasValidCheckDigit(bno.slice(0, i) + d + bno.slice(i + 1)), false, `${bno} at ${i} → ${d}`);
    }
  }
  // a swap of two digits five apart in weights 1 and 3 keeps the sum (2 × 5 ≡ 0 mod 10)
  const nine = '163456789'; // its first two digits, 1 and 6, are five apart
  const live = nine + checkDigitOf(nine);
  const typo = '61' + live.slice(2);
  assert.ok(hasValidCheckDigit(typo));
  assert.ok(transposedNeighbours(typo).includes(live));
  for (const n of transposedNeighbours(typo)) assert.ok(hasValidCheckDigit(n) && n !== typo);
  assert.deepEqual(transposedNeighbours('1234567890'), [], 'an invalid number has none');
  assert.deepEqual(transposedNeighbours('1111111111'.slice(0, 9) + checkDigitOf('111111111')), [], 'nothing to swap');
});
