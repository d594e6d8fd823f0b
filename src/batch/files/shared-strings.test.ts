import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SharedStringTable } from './shared-strings.ts';

test('strings read back exactly from the file, across write-buffer ends, long and empty ones included', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bizcheck-sst-'));
  const file = path.join(dir, 't');
  const fd = openSync(file, 'wx+');
  unlinkSync(file);
  try {
    const table = new SharedStringTable(fd);
    const texts: string[] = [];
    for (let i = 0; i < 50_000; i++) texts.push(i % 1000 === 0 ? '' : `(주)한빛상사 ${i} — 서울 강남구 ${'가'.repeat(i % 40)}`);
    texts.push('긴'.repeat(600_000), 'after the long one');
    for (const t of texts) table.add(t);
    table.finish();
    assert.equal(table.size, texts.length);
    for (const i of [0, 1, 999, 1000, 12_345, 49_999, 50_000, 50_001]) assert.equal(table.get(i), texts[i], `string ${i}`);
    const view = table.view();
    assert.equal(view[7], texts[7]);
    assert.equal(table.get(-1), undefined);
    assert.equal(table.get(texts.length), undefined);
    assert.equal(view[1.5], undefined);
    assert.deepEqual(readdirSync(dir), [], 'the file is never visible');
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
});
