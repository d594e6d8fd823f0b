import assert from 'node:assert/strict';
import { test } from 'node:test';
import { normaliseFromFile } from '../../domain/bizno.ts';
import { plainNumber } from './row-builder.ts';

test('the quick reading of plain numbers agrees with the general one', () => {
  for (const raw of ['1248100998', '124-81-00998', '0000000000', '124-8100998', '124-81-0099', '12481009989', '124 81 00998', '１２４８１００９９８', "'1248100998", '12a8100998', '124-81-0099x']) {
    const quick = plainNumber(raw);
    if (quick !== null) assert.equal(quick, normaliseFromFile(raw.normalize('NFKC')), raw);
  }
  assert.equal(plainNumber('124-81-00998'), '1248100998');
  assert.equal(plainNumber('1248100998'), '1248100998');
  assert.equal(plainNumber('124 81 00998'), null, 'other forms take the general path');
});
