import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CheckMemo } from './check-memo.ts';
import { createAddressService } from './address-service.ts';
import { SandboxDirectory } from './sandbox-directory.ts';
import { sandboxWorld } from './sandbox-data.ts';
import type { AddressCheck, AddressDirectory, DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';

const check = (raw: string): AddressCheck => ({ raw } as unknown as AddressCheck);

describe('CheckMemo', () => {
  test('keeps checks while the version stands; a new version forgets them; a check made under an old one is not kept', () => {
    const memo = new CheckMemo(10);
    memo.at(1);
    memo.set('a', check('a'), 1);
    assert.ok(memo.get('a'));
    memo.at(2);
    assert.equal(memo.get('a'), undefined);
    memo.set('b', check('b'), 1);
    assert.equal(memo.get('b'), undefined, 'checked under version 1, answered after the directory moved to 2');
  });

  test('holds at most its bound: the older generation goes first, one read from it is kept', () => {
    const memo = new CheckMemo(4);
    memo.at(0);
    for (const k of ['a', 'b', 'c', 'd']) memo.set(k, check(k), 0);
    // generations of two: {a, b} became the older when c came, and is dropped when e comes
    assert.ok(memo.get('c') && memo.get('d'));
    memo.set('e', check('e'), 0);
    assert.equal(memo.get('a'), undefined);
    assert.ok(memo.get('e'));
  });
});

/** The sandbox, counting what it is asked, its version set by the test, failing on demand. */
class CountingDirectory implements AddressDirectory {
  readonly source = 'sandbox' as const;
  readonly inner = new SandboxDirectory();
  asked = 0;
  v = 0;
  failing = false;
  async find(q: ParsedAddress, limit?: number): Promise<DirectoryEntry[]> {
    this.asked++;
    if (this.failing) throw new Error('directory down');
    return this.inner.find(q, limit);
  }
  async version(): Promise<number> {
    return this.v;
  }
  async close(): Promise<void> {}
}

describe('address checks kept by the text as written', () => {
  const entries = sandboxWorld().entries.slice(0, 40);
  const written = [...entries.map((e) => e.roadAddress), '서울 강남구 없는로 999', '', '아무 데나'];

  test('each answer is the one checked afresh; a text checked before asks the directory nothing', async () => {
    const dir = new CountingDirectory();
    const kept = createAddressService(dir, { memo: 1_000 });
    const fresh = createAddressService(new SandboxDirectory());
    for (const raw of written) assert.deepEqual(await kept.check(raw), await fresh.check(raw));
    const asked = dir.asked;
    for (const raw of written) assert.deepEqual(await kept.check(raw), await fresh.check(raw));
    assert.equal(dir.asked, asked, 'nothing asked again');
    const many = await kept.checkMany([...written, 'x 새로 쓴 주소 1']);
    assert.deepEqual(many, await fresh.checkMany([...written, 'x 새로 쓴 주소 1']));
    assert.ok(dir.asked > asked, 'the text not seen before was checked');
  });

  test('a new directory version checks again; a failure is not kept', async () => {
    const dir = new CountingDirectory();
    const kept = createAddressService(dir, { memo: 1_000 });
    const raw = entries[0]!.roadAddress;
    await kept.check(raw);
    dir.v = 1;
    const before = dir.asked;
    await kept.check(raw);
    assert.equal(dir.asked, before + 1, 'asked again under the new version');
    dir.v = 2;
    dir.failing = true;
    const failed = await kept.checkMany([raw, entries[1]!.roadAddress]);
    assert.ok([...failed.values()].every((c) => c instanceof Error));
    dir.failing = false;
    const again = await kept.checkMany([raw, entries[1]!.roadAddress]);
    assert.ok([...again.values()].every((c) => !(c instanceof Error)), 'the failure was not kept');
  });
});
