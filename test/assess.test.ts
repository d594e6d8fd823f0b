// POST /verify with a name (and address): the mailing-risk assessment end to end over HTTP,
// explained by reasons whose weights add up to the probability; and the model learning from labels.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SANDBOX_FIXED } from '../src/registry/sandbox.ts';
import { PRIOR_VERSION } from '../src/domain/model/prior.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { describeEachStore } from './helpers/stores.ts';

const fixed = (status: string) => SANDBOX_FIXED.find((f) => f.status === status)!.bno;
const REASON = /^\[([a-z_]+) ([+-]\d+\.\d{2})\] (.+) \((nts|address|labels|model|input)\)$/;
const GRADES = ['A', 'B', 'C', 'D', 'E'];
const ACTIONS = ['send', 'send_fixed_address', 'confirm_address', 'hold', 'do_not_send'];

function assertExplained(body: any): void {
  assert.equal(typeof body.bounce_prob, 'number');
  assert.ok(body.bounce_prob > 0 && body.bounce_prob < 1, String(body.bounce_prob));
  assert.ok(GRADES.includes(body.grade), body.grade);
  assert.ok(ACTIONS.includes(body.action), body.action);
  assert.match(body.model_version, /^(prior|global)-/);
  let sum = 0;
  for (const r of body.reasons as string[]) {
    const m = REASON.exec(r);
    assert.ok(m, `reason format: ${r}`);
    sum += Number(m[2]);
  }
  const fromReasons = 1 / (1 + Math.exp(-sum));
  // each weight is rounded to 0.01, so the sum may be off by 0.005 per reason
  assert.ok(Math.abs(fromReasons - body.bounce_prob) < 0.01, `reasons say ${fromReasons}, bounce_prob ${body.bounce_prob}`);
}

describeEachStore('POST /verify with name and address', (kind) => {
  let srv: TestServer;
  let key: string;
  before(async () => {
    srv = await startTestServer(kind);
    key = (await srv.account('business')).apiKey;
  });
  after(async () => srv.close());
  const verify = (body: unknown, headers: Record<string, string> = {}) => call(srv.url, 'POST', '/verify', { key, body, headers });

  test('an active business at an exact address is safe to send, and says why', async () => {
    const res = await verify({ b_no: fixed('active'), name: '삼성전자 주식회사', address: '서울특별시 강남구 테헤란로 152' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assertExplained(res.body);
    assert.equal(res.body.biz_status, 'active');
    assert.equal(res.body.fixed_zipcode, '06236');
    assert.equal(res.body.fixed_address, '서울특별시 강남구 테헤란로 152');
    assert.equal(res.body.address.quality, 'exact');
    // the building's identity, its lot address and its 참고항목, as the official directory writes them
    assert.match(res.body.address.building_id, /\S+/);
    assert.equal(res.body.address.jibun_address, '서울특별시 강남구 역삼동 737');
    assert.equal(res.body.address.reference, '(역삼동, 강남파이낸스센터)');
    // no floor or unit written in an office tower: about one letter in ten comes back before the account has outcomes
    assert.equal(res.body.grade, 'B');
    assert.ok(res.body.bounce_prob > 0.05 && res.body.bounce_prob < 0.15, String(res.body.bounce_prob));
    assert.equal(res.body.action, 'send');
    assert.match(res.body.reasons[0], /^\[active \+0\.00\] 국세청 상태: 계속사업자/);
  });

  test('a messy address is corrected component by component', async () => {
    const res = await verify({ b_no: fixed('active'), name: '(주)한빛', address: '서울시 서초구 태헤란로152, 3층 (135-080)' });
    assertExplained(res.body);
    assert.equal(res.body.address.quality, 'corrected');
    assert.deepEqual(
      res.body.address.changes.map((c: { field: string }) => c.field).toSorted(),
      ['road_name', 'sigungu', 'zipcode'],
    );
    assert.equal(res.body.address.outdated_zip, true);
    assert.equal(res.body.fixed_zipcode, '06236');
    assert.equal(res.body.fixed_address, '서울특별시 강남구 테헤란로 152, 3층');
    assert.ok(['send_fixed_address', 'hold'].includes(res.body.action), res.body.action);
    assert.ok(res.body.reasons.some((r: string) => r.endsWith('(address)')));
  });

  test('closed and unregistered businesses are not worth a stamp; an invalid number is held to be fixed', async () => {
    for (const b_no of [fixed('closed'), fixed('unregistered')]) {
      const res = await verify({ b_no, name: '한빛상사', address: '서울 중구 세종대로 110' });
      assertExplained(res.body);
      assert.equal(res.body.action, 'do_not_send', `${b_no}: ${res.body.action}`);
      assert.ok(['D', 'E'].includes(res.body.grade), `${b_no}: ${res.body.grade}`);
    }
    const invalid = await verify({ b_no: '1234567890', name: '한빛상사', address: '서울 중구 세종대로 110' });
    assertExplained(invalid.body);
    assert.equal(invalid.body.biz_status, 'invalid');
    assert.equal(invalid.body.action, 'hold');
  });

  test('a suspended business is held; an unknown address is to be confirmed', async () => {
    assert.equal((await verify({ b_no: fixed('suspended'), name: '한빛상사', address: '서울 중구 세종대로 110' })).body.action, 'hold');
    const lost = await verify({ b_no: fixed('active'), name: '한빛상사', address: '어딘가 없는로 99999' });
    assertExplained(lost.body);
    assert.equal(lost.body.address.quality, 'not_found');
    assert.equal(lost.body.fixed_address, null);
    assert.equal(lost.body.action, 'confirm_address');
    const vague = await verify({ b_no: fixed('active'), name: '한빛상사', address: '테헤란로' });
    assert.equal(vague.body.address.quality, 'ambiguous');
    assert.equal(vague.body.action, 'confirm_address');
  });

  test('a name without an address is assessed too; English on request', async () => {
    const res = await verify({ b_no: fixed('active'), name: 'Hanbit' }, { 'accept-language': 'en' });
    assertExplained(res.body);
    assert.equal(res.body.address, null);
    assert.equal(res.body.fixed_address, null);
    assert.match(res.body.reasons.join('\n'), /NTS status: operating/);
  });

  test('labels refit the model on a worker thread and the new version is used and recorded', async () => {
    const { accountId, apiKey } = await srv.account('business');
    const first = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: fixed('active'), name: '한빛상사', address: '서울 중구 세종대로 110' } });
    assert.equal(first.body.model_version, PRIOR_VERSION);
    // this account's mailings to exact addresses of active businesses bounce far more than the prior thinks
    const now = new Date().toISOString();
    for (let i = 1; i <= 300; i++) {
      await srv.store.labels.put({
        accountId, jobId: 'job_t', rowId: i, bno: fixed('active'), addressKey: `bld_${i}`, bounced: i % 3 === 0, reason: null, cause: null,
        features: { entity_individual: i % 2 }, modelVersion: PRIOR_VERSION, at: now,
      });
    }
    const outcome = await srv.refitter.runOnce(true);
    assert.equal(outcome.fitted, true);
    const refitted = await call(srv.url, 'POST', '/verify', { key: apiKey, body: { b_no: fixed('active'), name: '한빛상사', address: '서울 중구 세종대로 110' } });
    assertExplained(refitted.body);
    assert.match(refitted.body.model_version, /^global-/);
    assert.ok(refitted.body.bounce_prob > first.body.bounce_prob * 2, `${first.body.bounce_prob} → ${refitted.body.bounce_prob}`);
    assert.ok(refitted.body.reasons.some((r: string) => r.startsWith('[account_history ')), 'the account adjustment is explained');
    // another account shares the global refit but not this account's adjustment
    const other = await call(srv.url, 'POST', '/verify', { key, body: { b_no: fixed('active'), name: '한빛상사', address: '서울 중구 세종대로 110' } });
    assert.ok(!other.body.reasons.some((r: string) => r.startsWith('[account_history ')));
  });
});
