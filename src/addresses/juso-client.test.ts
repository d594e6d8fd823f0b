import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { DirectoryEntry, ParsedAddress } from '../domain/address/types.ts';
import { UpstreamError } from '../domain/status.ts';
import { type FakeJuso, startFakeJuso } from './fake-juso-server.ts';
import { JusoDirectory, JusoHttpClient, typoParts } from './juso-client.ts';

const KEY = 'U01TX0FVVEgy+/=';
const T = { timeout: 10_000 };

const entry = (over: Partial<DirectoryEntry>): DirectoryEntry => ({
  buildingId: '1168010100107370000000001', zipcode: '06236', sido: '서울특별시', sigungu: '강남구', eupmyeondong: '역삼동',
  ri: '', roadName: '테헤란로', underground: false, buildingMain: 152, buildingSub: 0, jibunMountain: false, jibunMain: 737,
  jibunSub: 0, buildingName: '강남파이낸스센터', roadAddress: '서울특별시 강남구 테헤란로 152', ...over,
});

const GFC = entry({});
const UNDERGROUND = entry({
  buildingId: '1114010300100010000000002', zipcode: '04524', sigungu: '중구', eupmyeondong: '태평로1가', roadName: '세종대로',
  underground: true, buildingMain: 2, jibunMain: 1, jibunMountain: true, buildingName: '', roadAddress: '서울특별시 중구 세종대로 지하 2',
});
// 120 buildings on one road: more than the fake lists before answering E0006
const CROWD = Array.from({ length: 120 }, (_, i) =>
  entry({ buildingId: `41830250${String(i).padStart(17, '0')}`, sido: '경기도', sigungu: '양평군', eupmyeondong: '양평읍', ri: '양근리',
    roadName: '중앙로', buildingMain: i + 1, jibunMain: 100 + i, buildingName: '', roadAddress: `경기도 양평군 중앙로 ${i + 1}` }));
const ENTRIES = [GFC, UNDERGROUND, ...CROWD];

const parsed = (p: Partial<ParsedAddress>): ParsedAddress => ({
  raw: '', sido: null, sigungu: null, eupmyeondong: null, road: null, roadNameOnly: null, jibun: null, detail: null,
  unit: null, buildingName: null, zipcode: null, form: 'unknown', ...p,
});
const GFC_QUERY = parsed({ sido: '서울특별시', sigungu: '강남구', road: { name: '테헤란로', underground: false, main: 152, sub: 0 }, form: 'road' });

async function rejectsWith(p: Promise<unknown>, fault: string, retryable: boolean): Promise<UpstreamError> {
  let caught: unknown;
  try {
    await p;
  } catch (e) {
    caught = e;
  }
  assert.ok(caught instanceof UpstreamError, `expected UpstreamError, got ${String(caught)}`);
  assert.equal(caught.fault, fault, caught.message);
  assert.equal(caught.retryable, retryable);
  return caught;
}

const signal = (): AbortSignal => AbortSignal.timeout(5_000);
const fast = { initialDelayMs: 5, maxDelayMs: 20 };

describe('JusoHttpClient and JusoDirectory against the fake juso', () => {
  let fake: FakeJuso;
  let client: JusoHttpClient;
  before(async () => {
    fake = await startFakeJuso({ entries: ENTRIES, confmKey: KEY });
    client = new JusoHttpClient({ baseUrl: fake.url, confmKey: KEY });
  });
  after(() => fake.close());
  const reset = (): void => fake.setOptions({ errorRate: 0, latencyMs: 0, confmKey: KEY, entries: ENTRIES });
  const directory = (over: Record<string, unknown> = {}): JusoDirectory =>
    new JusoDirectory({ baseUrl: fake.url, confmKey: KEY, ...fast, ...over });

  test('success: the building comes back as the wire describes it', T, async () => {
    reset();
    const dir = directory();
    const found = await dir.find(GFC_QUERY);
    assert.deepEqual(found, [GFC]);
    assert.equal(fake.received.at(-1), '서울특별시 강남구 테헤란로 152');
    await dir.close();
  });

  test('지하 and 산 flags survive the round trip', T, async () => {
    reset();
    const page = await client.searchOnce('세종대로 지하 2', 10, signal());
    assert.deepEqual(page.entries, [UNDERGROUND]);
  });

  test('lot-number queries find the building too', T, async () => {
    reset();
    const dir = directory();
    const found = await dir.find(parsed({ sido: '서울특별시', sigungu: '강남구', jibun: { dong: '역삼동', mountain: false, main: 737, sub: 0 } }));
    assert.deepEqual(found.map((e) => e.buildingId), [GFC.buildingId]);
    await dir.close();
  });

  test('no match is an empty list', T, async () => {
    reset();
    assert.deepEqual(await client.searchOnce('강남구 테헤란로 999', 10, signal()), { totalCount: 0, entries: [] });
  });

  test('wrong key: E0001, rejected, asked once only', T, async () => {
    reset();
    const dir = new JusoDirectory({ baseUrl: fake.url, confmKey: 'wrong', ...fast });
    const callsBefore = fake.calls;
    const e = await rejectsWith(dir.find(GFC_QUERY), 'rejected', false);
    assert.match(e.message, /E0001/);
    assert.doesNotMatch(e.message, /wrong/, 'the key never appears in errors');
    assert.equal(fake.calls - callsBefore, 1);
    await dir.close();
  });

  test('empty keyword (E0005), one character (E0008), forbidden words (E0013): no candidates', T, async () => {
    reset();
    for (const keyword of ['', '강', '강남 SELECT']) {
      assert.deepEqual(await client.searchOnce(keyword, 10, signal()), { totalCount: 0, entries: [] }, keyword);
    }
  });

  test('a keyword matching too much (E0006): no candidates', T, async () => {
    reset();
    assert.deepEqual(await client.searchOnce('양평군 중앙로', 10, signal()), { totalCount: 0, entries: [] });
    // narrowed to one building it is found
    assert.equal((await client.searchOnce('양평군 중앙로 7', 10, signal())).entries[0]?.buildingMain, 7);
  });

  test('the directory strips what the API refuses before asking', T, async () => {
    reset();
    const dir = directory();
    await dir.find(parsed({ sigungu: '강남구', road: { name: '테헤란로[본선]', underground: false, main: 152, sub: 0 } }));
    // (then the parts of the name a typo may hide in, as it found nothing)
    assert.ok(fake.received.includes('강남구 테헤란로 본선 152'), fake.received.join(' / '));
    await dir.close();
  });

  test('-999 is retried, then succeeds', T, async () => {
    reset();
    fake.setOptions({ errorRate: 1 });
    // the first answer heals the fake, so exactly one failure precedes success
    const healing: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      fake.setOptions({ errorRate: 0 });
      return res;
    };
    const dir = directory({ fetch: healing });
    const callsBefore = fake.calls;
    assert.deepEqual(await dir.find(GFC_QUERY), [GFC]);
    assert.equal(fake.calls - callsBefore, 2);
    await dir.close();
  });

  test('-999 every time: http_5xx after the retries run out', T, async () => {
    reset();
    fake.setOptions({ errorRate: 1 });
    const dir = directory({ maxRetries: 2 });
    const callsBefore = fake.calls;
    await rejectsWith(dir.find(GFC_QUERY), 'http_5xx', true);
    assert.equal(fake.calls - callsBefore, 3);
    await dir.close();
  });

  test('the breaker opens after consecutive failures and stops calling', T, async () => {
    reset();
    fake.setOptions({ errorRate: 1 });
    const dir = directory({ maxRetries: 0, breakerThreshold: 2, halfOpenAfterMs: 60_000 });
    await rejectsWith(dir.find(GFC_QUERY), 'http_5xx', true);
    await rejectsWith(dir.find(GFC_QUERY), 'http_5xx', true);
    assert.equal(dir.health().upstream, 'open');
    const callsBefore = fake.calls;
    const e = await rejectsWith(dir.find(GFC_QUERY), 'circuit_open', true);
    assert.match(e.message, /juso/);
    assert.doesNotMatch(e.message, /NTS/);
    assert.equal(fake.calls, callsBefore);
    await dir.close();
  });

  test('a slow answer times out (per attempt), and is retried', T, async () => {
    reset();
    fake.setOptions({ latencyMs: 2_000 });
    const dir = directory({ timeoutMs: 100, maxRetries: 1 });
    const callsBefore = fake.calls;
    const started = Date.now();
    const e = await rejectsWith(dir.find(GFC_QUERY), 'timeout', true);
    assert.ok(Date.now() - started < 1_500, 'gave up long before the answer');
    assert.match(e.message, /juso call timed out after 100 ms/);
    assert.equal(fake.calls - callsBefore, 2);
    await dir.close();
  });

  test('answers are cached by keyword; errors are not', T, async () => {
    reset();
    const dir = directory({ maxRetries: 0 });
    const callsBefore = fake.calls;
    await dir.find(GFC_QUERY);
    await dir.find(GFC_QUERY, 5);
    assert.equal(fake.calls - callsBefore, 1);
    // an empty answer is an answer
    const nowhere = parsed({ sigungu: '강남구', road: { name: '없는로', underground: false, main: 1, sub: 0 } });
    assert.deepEqual(await dir.find(nowhere), []);
    const asked = fake.calls;
    assert.ok(asked - callsBefore >= 2, 'the name, then the parts a typo may hide in');
    assert.deepEqual(await dir.find(nowhere), []);
    assert.equal(fake.calls, asked, 'all of them cached');
    fake.setOptions({ errorRate: 1 });
    const other = parsed({ road: { name: '세종대로', underground: true, main: 2, sub: 0 } });
    await rejectsWith(dir.find(other), 'http_5xx', true);
    fake.setOptions({ errorRate: 0 });
    assert.equal((await dir.find(other)).length, 1);
    await dir.close();
  });

  test('the cache is bounded (least recently used goes) and expires', T, async () => {
    reset();
    const dir = directory({ cacheMaxKeywords: 1 });
    const other = parsed({ road: { name: '세종대로', underground: true, main: 2, sub: 0 } });
    const callsBefore = fake.calls;
    await dir.find(GFC_QUERY);
    await dir.find(other);
    await dir.find(GFC_QUERY);
    assert.equal(fake.calls - callsBefore, 3);
    const shortLived = directory({ cacheTtlMs: 30 });
    await shortLived.find(GFC_QUERY);
    await new Promise((r) => setTimeout(r, 60));
    await shortLived.find(GFC_QUERY);
    assert.equal(fake.calls - callsBefore, 5);
    await dir.close();
    await shortLived.close();
  });

  test('concurrent finds of one keyword share a call', T, async () => {
    reset();
    fake.setOptions({ latencyMs: 50 });
    const dir = directory();
    const callsBefore = fake.calls;
    const [a, b] = await Promise.all([dir.find(GFC_QUERY), dir.find(GFC_QUERY)]);
    assert.deepEqual(a, b);
    assert.equal(fake.calls - callsBefore, 1);
    await dir.close();
  });

  test('a limit beyond the cached page asks again, unless that page held every match', T, async () => {
    reset();
    fake.setOptions({ entries: CROWD.slice(0, 30) });
    const dir = directory();
    const road = parsed({ sigungu: '양평군', roadNameOnly: '중앙로' });
    const callsBefore = fake.calls;
    assert.equal((await dir.find(road, 5)).length, 5);
    assert.equal((await dir.find(road, 25)).length, 25);
    assert.equal((await dir.find(road, 10)).length, 10);
    assert.equal(fake.calls - callsBefore, 2);
    const gfc = await dir.find(parsed({ sigungu: '양평군', road: { name: '중앙로', underground: false, main: 3, sub: 0 } }), 1);
    assert.equal(gfc.length, 1);
    await dir.find(parsed({ sigungu: '양평군', road: { name: '중앙로', underground: false, main: 3, sub: 0 } }), 60);
    assert.equal(fake.calls - callsBefore, 3, 'one match was the whole answer: nothing more to ask for');
    await dir.close();
  });

  test('connection refused is a retryable network error', T, async () => {
    const gone = await startFakeJuso({ entries: [] });
    const url = gone.url;
    await gone.close();
    const c = new JusoHttpClient({ baseUrl: url, confmKey: KEY });
    const e = await rejectsWith(c.searchOnce('테헤란로 152', 10, signal()), 'network', true);
    assert.doesNotMatch(e.message, /U01TX/);
  });
});

const onRoad = (name: string): ParsedAddress => parsed({ road: { name, underground: false, main: 1, sub: 0 } });

describe('a road name with a typo on juso', () => {
  let fake: FakeJuso;
  before(async () => { fake = await startFakeJuso({ entries: ENTRIES, confmKey: KEY }); });
  after(async () => { await fake.close(); });

  test('asks for the parts of the name around each letter that may be wrong, the branch number left out', () => {
    assert.deepEqual(typoParts(onRoad('태헤란로')), ['헤란로', '란로', '태헤', '태헤란']);
    assert.deepEqual(typoParts(onRoad('술밭로12번길')), ['밭로', '술밭']);
    assert.deepEqual(typoParts(onRoad('중앙')), []);
  });

  test('finds the road a typo away; a road merely sharing letters is not it', T, async () => {
    const dir = new JusoDirectory({ baseUrl: fake.url, confmKey: KEY, ...fast });
    const typo = await dir.find({ ...GFC_QUERY, road: { ...GFC_QUERY.road!, name: '태헤란로' } });
    assert.deepEqual(typo.map((e) => e.buildingId), [GFC.buildingId]);
    const calls = fake.received.length;
    // 헤란공원로 shares 헤란 with 테헤란로 but is three letters from it: another road
    assert.deepEqual(await dir.find({ ...GFC_QUERY, road: { ...GFC_QUERY.road!, name: '헤란공원로' } }), []);
    assert.ok(fake.received.length - calls <= 6, 'one question per letter at most, not one per road');
  });
});

describe('fake juso lifecycle', () => {
  test('close() ends requests held by latency instead of waiting for them', T, async () => {
    const fake = await startFakeJuso({ entries: [GFC], latencyMs: 5_000 });
    const c = new JusoHttpClient({ baseUrl: fake.url, confmKey: 'any' });
    const pending = c.searchOnce('테헤란로 152', 10, signal());
    while (fake.calls === 0) await new Promise((r) => setTimeout(r, 5));
    const started = Date.now();
    await fake.close();
    await rejectsWith(pending, 'network', true);
    assert.ok(Date.now() - started < 1_000, 'close did not wait for the held request');
  });

  test('without confmKey any key is accepted; pages are cut at countPerPage', T, async () => {
    const fake = await startFakeJuso({ entries: CROWD.slice(0, 30) });
    try {
      const page = await new JusoHttpClient({ baseUrl: fake.url, confmKey: 'whatever' }).searchOnce('양평군 중앙로', 10, signal());
      assert.equal(page.totalCount, 30);
      assert.equal(page.entries.length, 10);
    } finally {
      await fake.close();
    }
  });
});
