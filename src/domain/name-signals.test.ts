import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasCorporateMarker, nameSignals, tradeOf } from './name-signals.ts';

test('corporate legal forms are recognised however they are written', () => {
  for (const n of ['주식회사 한빛', '(주)한빛', '㈜한빛', '한빛 주식회사', '（주） 한빛', '유한회사 한빛', 'Hanbit Co., Ltd.', 'HANBIT INC', '사단법인 한빛']) {
    assert.equal(hasCorporateMarker(n), true, n);
  }
  for (const n of ['한빛상사', '김철수 세무사무소', '한빛식당', 'Incheon Bakery']) assert.equal(hasCorporateMarker(n), false, n);
});

test('a corporate name on an individual number is a mismatch; the reverse is common and is not', () => {
  assert.equal(nameSignals('(주)한빛', 'individual_taxable').entityMismatch, true);
  assert.equal(nameSignals('(주)한빛', 'corporate_head').entityMismatch, false);
  assert.equal(nameSignals('한빛', 'corporate_head').entityMismatch, false);
});

test('closure words in the name are a hint', () => {
  assert.equal(nameSignals('한빛상사(폐업)', 'individual_taxable').closureHint, true);
  assert.equal(nameSignals('(구)한빛상사', 'individual_taxable').closureHint, true);
  assert.equal(nameSignals('한빛상사', 'individual_taxable').closureHint, false);
  assert.deepEqual(nameSignals('  ', 'corporate_head'), { entityMismatch: false, closureHint: false, trade: null, branch: false });
  assert.deepEqual(nameSignals(undefined, 'corporate_head'), { entityMismatch: false, closureHint: false, trade: null, branch: false });
});

test('the trade a name announces, as Korean businesses name themselves', () => {
  const table: [string, ReturnType<typeof tradeOf>][] = [
    ['할매국밥', 'food'], ['스타벅스 역삼점', null], ['카페 온기', 'food'], ['BBQ치킨 역삼', 'food'], ['김밥천국', 'food'], ['Coffee Lab', 'food'],
    ['준헤어', 'beauty'], ['네일아트 수', 'beauty'],
    ['온누리약국', 'medical'], ['서울연세치과의원', 'medical'], ['경희한의원', 'medical'],
    ['세무법인 가온', 'professional'], ['김앤장 법률사무소', 'professional'], ['한빛특허법률사무소', 'professional'],
    ['대성정밀', 'industrial'], ['(주)한국금속', 'industrial'], ['동양기계공업', 'industrial'],
    ['대한유통', 'wholesale'], ['(주)한빛상사', 'wholesale'], ['삼성물산', 'wholesale'],
    ['행복마트', 'retail'], ['제일상회', 'retail'], ['명동꽃집', 'retail'],
    ['정상어학원', 'education'], ['수학교습소', 'education'],
    ['래미안공인중개사사무소', 'realestate'], ['우리부동산', 'realestate'],
    ['주식회사 가온', null], ['한빛', null],
  ];
  for (const [name, trade] of table) assert.equal(tradeOf(name), trade, name);
});

test('branches, sales offices and agencies are told from head offices', () => {
  for (const n of ['국민은행 역삼지점', '한빛상사 부산영업소', '삼성전자 대리점', '○○보험 강남지사']) assert.equal(nameSignals(n, 'corporate_branch').branch, true, n);
  for (const n of ['한빛상사', '(주)가온 본사', '지혜로운 점심']) assert.equal(nameSignals(n, 'corporate_head').branch, false, n);
});
