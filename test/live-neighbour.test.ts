// An unregistered number two swapped digits away from an operating business's number: the list
// most likely mistyped that business, and the letter goes to its address. Over HTTP against the
// fake NTS, on both stores: POST /verify says so and scores it below a plain unregistered number,
// a watched entry and a named batch row get the same result, and nobody is charged for the
// neighbour's lookup.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { checkDigitOf, formatWithHyphens, hasValidCheckDigit, transposedNeighbours } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { sandboxRecord, unregisteredRecord } from '../src/registry/sandbox.ts';
import type { NtsRecord } from '../src/domain/status.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { upload, waitForJob } from './helpers/batch.ts';
import { describeEachStore } from './helpers/stores.ts';

// 1 and 6 are five apart in weights 1 and 3: swapping them keeps the check digit
const LIVE = `163456789${checkDigitOf('163456789')}`;
const TYPO = `61${LIVE.slice(2)}`;
// an unregistered number with no valid transposition at all
const PLAIN = (() => {
  for (let i = 0; ; i++) {
    const nine = String(500000000 + i * 7919).slice(0, 9);
    const bno = nine + checkDigitOf(nine);
    if (transposedNeighbours(bno).length === 0) return bno;
  }
})();
const active = (bno: string): NtsRecord => ({ ...sandboxRecord(bno), b_no: bno, b_stt: '계속사업자', b_stt_cd: '01', tax_type: '부가가치세 일반과세자', tax_type_cd: '01', end_dt: '' });
const ADDRESS = '서울특별시 강남구 테헤란로 152';

describeEachStore('an unregistered number that is a live number mistyped', (kind) => {
  let nts: FakeNts;
  let srv: TestServer;
  let key: string;
  before(async () => {
    assert.ok(hasValidCheckDigit(TYPO) && transposedNeighbours(TYPO).includes(LIVE));
    nts = await startFakeNts({ serviceKey: 'k' });
    nts.setOptions({ overrides: new Map([[LIVE, active(LIVE)], [TYPO, unregisteredRecord(TYPO)], [PLAIN, unregisteredRecord(PLAIN)]]) });
    srv = await startTestServer(kind, { NTS_SERVICE_KEY: 'k', NTS_BASE_URL: nts.url });
    key = (await srv.account('business')).apiKey;
  });
  after(async () => {
    await srv.close();
    await nts.close();
  });

  const verify = async (bno: string) => {
    const res = await call(srv.url, 'POST', '/verify', { key, body: { b_no: bno, name: '한빛상사', address: ADDRESS } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { biz_status: string; bounce_prob: number; reasons: string[] };
  };
  const used = async () => ((await call(srv.url, 'GET', '/me', { key })).body.quota as { used: number }).used;

  test('POST /verify names the operating neighbour, scores it below a plain unregistered number, and charges one lookup', async () => {
    const before0 = await used();
    const typo = await verify(TYPO);
    assert.equal(await used(), before0 + 1, 'the neighbour is looked up for free');
    assert.equal(typo.biz_status, 'unregistered');
    const reason = typo.reasons.find((r) => r.startsWith('[unregistered_near_live '));
    assert.ok(reason?.includes(formatWithHyphens(LIVE)), JSON.stringify(typo.reasons));
    const plain = await verify(PLAIN);
    assert.equal(plain.reasons.some((r) => r.startsWith('[unregistered_near_live ')), false);
    assert.ok(typo.bounce_prob < plain.bounce_prob / 2, `${typo.bounce_prob} vs ${plain.bounce_prob}`);
  });

  test('a watched entry is assessed as POST /verify assesses it', async () => {
    const expected = await verify(TYPO);
    const res = await call(srv.url, 'POST', '/watch', { key, body: { biz_no: TYPO, name: '한빛상사', address: ADDRESS } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual([res.body.biz_status, res.body.bounce_prob], ['unregistered', expected.bounce_prob]);
  });

  test('a named batch row gives the same result as POST /verify', async () => {
    const expected = await verify(TYPO);
    const up = await upload(srv.url, key, { name: 'list.csv', body: `사업자등록번호,상호,주소\n${TYPO},한빛상사,${ADDRESS}\n${PLAIN},한빛상사,${ADDRESS}\n` });
    assert.equal(up.status, 202, JSON.stringify(up.body));
    const done = await waitForJob(srv.url, key, (up.body as { job_id: string }).job_id);
    assert.equal(done.body.status, 'done');
    // the results file flattens reasons into one cell
    const rows = (await call(srv.url, 'GET', `/batch/${(up.body as { job_id: string }).job_id}/results?format=json`, { key })).body as { b_no: string; bounce_prob: number; reasons: string }[];
    const row = rows.find((r) => r.b_no === TYPO);
    assert.deepEqual([row?.bounce_prob, row?.reasons], [expected.bounce_prob, expected.reasons.join(' | ')]);
  });
});
