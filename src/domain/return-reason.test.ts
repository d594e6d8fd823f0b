import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bouncedOf, causeOf } from './return-reason.ts';

test('반송 사유 as the post office stamps them and customers copy them', () => {
  const table: [string, ReturnType<typeof causeOf>][] = [
    ['수취인불명', 'unknown_recipient'],
    ['수취인 불명', 'unknown_recipient'],
    ['수취인미상', 'unknown_recipient'],
    ['받는 분 없음', 'unknown_recipient'],
    ['이사불명', 'moved'],
    ['이사감', 'moved'],
    ['반송(이사)', 'moved'],
    ['이사 불명 (전출)', 'moved'],
    ['주소불명', 'bad_address'],
    ['주소 불충분', 'bad_address'],
    ['번지 없음', 'bad_address'],
    ['폐문부재', 'nobody_home'],
    ['수취인 부재', 'nobody_home'],
    ['장기부재', 'nobody_home'],
    ['보관기간 경과', 'nobody_home'],
    ['수취거절', 'refused'],
    ['수취 거부', 'refused'],
    ['폐업', 'closed'],
    ['사망', 'deceased'],
    ['기타', 'other'],
    ['반송', 'other'],
    ['봉투 훼손', 'other'],
    ['Moved, left no address', 'moved'],
    ['Attempted - not known', 'unknown_recipient'],
    ['Refused', 'refused'],
    ['No such address', 'bad_address'],
    ['ＭＯＶＥＤ', 'moved'],
  ];
  for (const [reason, cause] of table) assert.equal(causeOf(reason), cause, reason);
});

test('no reason, or one that says the mail arrived, names no cause', () => {
  for (const r of [null, undefined, '', '  ', '배달완료', '정상 배달', 'delivered', '수령']) assert.equal(causeOf(r), null, String(r));
  // 미수령 holds 수령 but is a failure to collect
  assert.equal(causeOf('미수령'), 'nobody_home');
});

test('outcome cells as customers fill them in', () => {
  for (const v of [true, 1, '1', 'Y', 'yes', 'O', '반송', 'TRUE', '예', '이사불명', '폐문부재']) assert.equal(bouncedOf(v), true, String(v));
  for (const v of [false, 0, '0', 'N', 'no', 'X', '정상', '배달완료', 'false', '아니오']) assert.equal(bouncedOf(v), false, String(v));
  for (const v of [null, '', '2', 'maybe', '메모', 7]) assert.equal(bouncedOf(v), null, String(v));
});
