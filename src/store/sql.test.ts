import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toSqliteText } from './sql.ts';

test('SQLite text binds a LIMIT as an expression (a bound LIMIT ? plans ~3× slower), outside string literals only', () => {
  assert.equal(toSqliteText('SELECT a FROM t ORDER BY a LIMIT ?'), 'SELECT a FROM t ORDER BY a LIMIT CAST(? AS INTEGER)');
  assert.equal(toSqliteText("SELECT 'LIMIT ?' AS x LIMIT 5"), "SELECT 'LIMIT ?' AS x LIMIT 5");
});
