// The watch list and webhook screens in real headless Chromium, against the fake NTS and a local
// webhook receiver, with the server's clock moved by hand: add a business and see its status and
// grade, page through the list, remove one, let the business close and read the history timeline,
// set a webhook (the secret shown once and really signing), send a test event and see it
// delivered in the log; a free account sees that the business plan is needed. Desktop and
// 390×844 phone screenshots land in test-artifacts/console/ (gitignored).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { verifySignature } from '../examples/webhook-receiver.ts';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { startFakeNts, type FakeNts } from '../src/registry/fake-nts-server.ts';
import { sandboxRecord } from '../src/registry/sandbox.ts';
import { DESKTOP, launchChromium, newPage, NO_CHROMIUM, noSideways, PHONE, screenshot, watchErrors } from './helpers/browser.ts';
import { PASSWORD } from './helpers/console.ts';
import { startReceiver, type Receiver } from './helpers/receiver.ts';
import { startTestServer, type TestServer } from './helpers/server.ts';
import { PG_URL, type StoreKind } from './helpers/stores.ts';

const HOUR = 3600_000;
const valid = (i: number) => {
  const nine = String(610000000 + i * 7919).slice(0, 9);
  return nine + checkDigitOf(nine);
};
const hyphenated = (bno: string) => `${bno.slice(0, 3)}-${bno.slice(3, 5)}-${bno.slice(5)}`;

/** failed requests these tests cause on purpose (the browser logs each as a console error) */
const EXPECTED_FAILURES = [
  /status of 404 .*\/console\/api\/webhook$/, // no endpoint set yet
  /status of 400 .*\/console\/api\/watch$/, // a number whose check digit is wrong
];

async function signUp(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/console/`);
  await page.getByRole('button', { name: /가입하기/ }).click();
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.getByTestId('plan').waitFor();
}

async function signIn(page: Page, url: string, email: string): Promise<void> {
  await page.goto(`${url}/console/`);
  await page.getByLabel('이메일').fill(email);
  await page.getByLabel('비밀번호').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.getByTestId('plan').waitFor();
}

function watchSuite(kind: StoreKind): void {
  let nts: FakeNts;
  let srv: TestServer;
  let receiver: Receiver;
  let browser: Browser;
  let clock = Date.now();
  const errors: string[] = [];
  const who = `watch-${kind}-${Date.now()}@example.com`;
  const bno = valid(1);
  const overrides = new Map<string, ReturnType<typeof sandboxRecord>>();
  const setStatus = (n: string, code: '01' | '03') => {
    overrides.set(n, { ...sandboxRecord(n), b_no: n, b_stt: code === '01' ? '계속사업자' : '폐업자', b_stt_cd: code, end_dt: code === '03' ? '20261120' : '' });
    nts.setOptions({ overrides });
  };

  before(async () => {
    // the pages under test are the current sources, not whatever an earlier install built
    execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/build-console.ts')], { stdio: 'ignore', timeout: 120_000 });
    nts = await startFakeNts({ serviceKey: 'k' });
    receiver = await startReceiver();
    srv = await startTestServer(
      kind,
      {
        NTS_SERVICE_KEY: 'k',
        NTS_BASE_URL: nts.url,
        WATCH_POLL_SECONDS: '3600',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_ALLOW_HTTP: 'true',
        // the clock moves a day on; the session must outlive that
        CONSOLE_SESSION_HOURS: '720',
        CONSOLE_SIGNUPS_PER_IP_HOUR: '1000',
      },
      { now: () => new Date(clock) },
    );
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
    await receiver?.close();
    await nts?.close();
  });

  test('desktop: add a watch, page, remove, see the closure in the history, webhook secret once, test event delivered', async () => {
    const { ctx, page } = await newPage(browser, srv, DESKTOP);
    watchErrors(page, errors, EXPECTED_FAILURES);
    try {
      await signUp(page, srv.url, who);
      const login = await srv.store.console.findLogin(who);
      await srv.store.accounts.setPlan(login!.account.id, 'business');

      // add: a malformed number is caught before sending; a wrong check digit by the server
      await page.getByRole('link', { name: '감시 목록' }).click();
      await page.getByRole('heading', { name: '사업자 추가' }).waitFor();
      const number = page.getByLabel('사업자등록번호');
      await number.fill('124-81-009');
      await page.getByRole('button', { name: '감시 시작' }).click();
      await page.getByRole('alert').filter({ hasText: '숫자 10자리입니다. 지금 숫자 8자리' }).waitFor();
      assert.equal(await number.getAttribute('aria-invalid'), 'true');
      await number.fill('124-81-00999');
      await page.getByRole('button', { name: '감시 시작' }).click();
      await page.getByRole('alert').filter({ hasText: '있을 수 없는 사업자등록번호' }).waitFor();

      setStatus(bno, '01');
      await number.fill(hyphenated(bno));
      await page.getByLabel('상호 (선택)').fill('주식회사 한빛상사');
      await page.getByLabel('주소 (선택)').fill('서울특별시 강남구 테헤란로 152');
      await page.getByRole('button', { name: '감시 시작' }).click();
      await page.getByRole('status').filter({ hasText: `${hyphenated(bno)} 감시를 시작했습니다` }).waitFor();
      const row = page.locator(`tr[data-watch="${bno}"]`);
      await row.waitFor();
      assert.equal(await row.getByTestId('watch-status').textContent(), '계속사업자');
      assert.match((await row.locator('.grade').getAttribute('class')) ?? '', /grade-[A-E]/);
      assert.match((await row.locator('.grade').textContent()) ?? '', /^[A-E]$/);
      assert.equal(await number.inputValue(), '', 'the form is cleared after adding');
      await screenshot(page, `${kind}-desktop-8-watch-added`);

      // more than a page: 21 more businesses through the same endpoints, then "more" loads the rest
      const session = (await (await ctx.request.get(`${srv.url}/console/api/session`)).json()) as { csrf_token: string };
      for (let i = 0; i < 21; i++) {
        // a moment apart: entries made at one instant are listed in id order (random), which
        // could put the first business on the second page
        clock += 1;
        const res = await ctx.request.post(`${srv.url}/console/api/watch`, {
          data: { biz_no: valid(100 + i), name: `상점${i}` },
          headers: { 'x-csrf-token': session.csrf_token, origin: srv.url },
        });
        assert.equal(res.status(), 201, await res.text());
      }
      await page.reload();
      const rows = page.getByTestId('watches').locator('tbody tr');
      await rows.first().waitFor();
      assert.equal(await rows.count(), 20);
      await page.getByRole('button', { name: '더 보기' }).click();
      await page.locator(`tr[data-watch="${valid(120)}"]`).waitFor();
      assert.equal(await rows.count(), 22);
      assert.equal(await page.getByRole('button', { name: '더 보기' }).count(), 0, 'the last page has no "more"');

      // remove, with confirmation (Esc cancels first)
      const gone = hyphenated(valid(120));
      await page.getByRole('button', { name: `${gone} 감시 중지` }).click();
      const confirm = page.getByRole('dialog', { name: '감시 중지' });
      await confirm.waitFor();
      assert.match((await confirm.textContent()) ?? '', /이력도 함께 지워지며/);
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: `${gone} 감시 중지` }).click();
      await confirm.getByRole('button', { name: '감시 중지' }).click();
      await page.getByRole('status').filter({ hasText: `${gone} 감시를 중지했습니다` }).waitFor();
      assert.equal(await rows.count(), 21);
      const listed = await ctx.request.get(`${srv.url}/console/api/watch?limit=100`);
      assert.ok(!JSON.stringify(await listed.json()).includes(valid(120)), 'removed on the server too');

      // the business closes: a day later the scheduler's re-check records it
      setStatus(bno, '03');
      clock += 24 * HOUR + 1000;
      const round = await srv.scheduler.runOnce();
      assert.ok(round.checked >= 1, JSON.stringify(round));
      await page.reload();
      await page.locator(`tr[data-watch="${bno}"]`).getByTestId('watch-status').filter({ hasText: '폐업자' }).waitFor();

      // find it among the rest: by status, by a piece of the name, by the number as people write it
      // (the sandbox closes some of the others too: the server's own count says how many)
      const closed = ((await (await ctx.request.get(`${srv.url}/console/api/watch?status=closed`)).json()) as { matching: number }).matching;
      assert.ok(closed >= 1);
      await page.getByLabel('상태').selectOption('closed');
      await page.getByTestId('watch-count').filter({ hasText: `조건에 맞는 ${closed}곳 중 ${closed}곳 표시 (전체 21곳)` }).waitFor();
      assert.equal(await rows.count(), closed);
      await page.locator(`tr[data-watch="${bno}"]`).waitFor();
      await page.getByLabel('상태').selectOption('');
      await page.getByLabel('번호 또는 상호').fill('상점1');
      await page.getByRole('button', { name: '찾기' }).click();
      // 상점1 and 상점10 … 상점19
      await page.getByTestId('watch-count').filter({ hasText: '조건에 맞는 11곳 중 11곳 표시' }).waitFor();
      await page.getByLabel('번호 또는 상호').fill(hyphenated(valid(105)).slice(0, 9));
      await page.getByLabel('번호 또는 상호').press('Enter');
      await page.locator(`tr[data-watch="${valid(105)}"]`).waitFor();
      await page.getByLabel('번호 또는 상호').fill('없는상호');
      await page.getByRole('button', { name: '찾기' }).click();
      await page.getByText('조건에 맞는 사업자가 없습니다.').waitFor();
      await screenshot(page, `${kind}-desktop-9-watch-search-empty`);
      await page.getByRole('button', { name: '조건 지우기' }).click();
      await page.getByTestId('watch-count').filter({ hasText: '전체 21곳 중 20곳 표시' }).waitFor();

      await page.getByRole('link', { name: `${hyphenated(bno)} 변경 이력` }).click();
      await page.getByRole('heading', { name: `${hyphenated(bno)} 변경 이력` }).waitFor();
      const entries = page.getByTestId('history-entry');
      await entries.nth(1).waitFor();
      assert.equal(await entries.count(), 2);
      const start = (await entries.nth(0).textContent()) ?? '';
      assert.match(start, /감시 시작/);
      assert.match(start, /계속사업자/);
      const change = entries.nth(1);
      assert.match((await change.textContent()) ?? '', /변경/);
      assert.equal(await change.locator('.change').first().locator('.from').textContent(), '계속사업자');
      assert.equal(await change.locator('.change').first().locator('.to').textContent(), '폐업자');
      assert.match((await change.textContent()) ?? '', /폐업일 2026-11-20/);
      // each entry links its receipt: what NTS answered at that check
      await change.getByRole('link', { name: '증빙' }).click();
      await page.getByTestId('receipt').filter({ hasText: '폐업자' }).waitFor();
      await page.goBack();
      await entries.nth(1).waitFor();
      assert.match(page.url(), /\/console\/watch\/wch_/);
      await screenshot(page, `${kind}-desktop-9-watch-history`);
      // the same timeline in English
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { name: `History of ${hyphenated(bno)}` }).waitFor();
      assert.match((await entries.nth(0).textContent()) ?? '', /Watching started/);
      assert.equal(await change.locator('.change').first().locator('.from').textContent(), 'active');
      assert.equal(await change.locator('.change').first().locator('.to').textContent(), 'closed');
      await screenshot(page, `${kind}-desktop-9-watch-history-en`);
      await page.getByRole('button', { name: '한국어' }).click();
      await page.getByRole('link', { name: '← 감시 목록' }).click();
      await page.getByRole('heading', { name: '사업자 추가' }).waitFor();
      await screenshot(page, `${kind}-desktop-10-watch-list`);

      // webhook: nothing set; set the receiver's URL; the secret once
      await page.getByRole('link', { name: '웹훅', exact: true }).click();
      await page.getByText('설정한 엔드포인트가 없습니다').waitFor();
      await page.getByText('아직 보낸 이벤트가 없습니다').waitFor();
      await page.getByLabel('엔드포인트 URL').fill(receiver.url);
      await page.getByRole('button', { name: 'URL 저장' }).click();
      const dialog = page.getByRole('dialog', { name: '웹훅 서명 비밀 키' });
      await dialog.waitFor();
      const secret = await dialog.getByLabel('서명 비밀 키 (whsec_…)').inputValue();
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      assert.ok(await dialog.getByText('한 번만 표시됩니다').isVisible());
      assert.ok(await dialog.getByRole('heading', { name: '서명을 확인하는 방법' }).isVisible());
      assert.match((await dialog.textContent()) ?? '', /examples\/webhook-receiver\.ts/);
      await dialog.getByRole('button', { name: '복사' }).click();
      await dialog.getByText('복사했습니다').waitFor();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), secret);
      await screenshot(page, `${kind}-desktop-11-webhook-secret`, { viewport: true });
      await dialog.getByRole('button', { name: /닫기/ }).click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await page.getByTestId('secret-hint').textContent(), `${secret.slice(0, 10)}…`);
      assert.equal(await page.getByTestId('endpoint-state').textContent(), '사용 중');
      const html = String(await page.evaluate('document.documentElement.outerHTML'));
      assert.ok(!html.includes(secret), 'the secret is gone once its dialog closes');

      // a test event: queued, delivered to the receiver, signed with that secret, logged as delivered
      await page.getByRole('button', { name: '테스트 이벤트 보내기' }).click();
      await page.getByRole('status').filter({ hasText: '테스트 이벤트를 보냈습니다' }).waitFor();
      const delivered = page.getByTestId('deliveries').locator('tbody tr').filter({ hasText: 'webhook.test' });
      await delivered.getByTestId('delivery-state').filter({ hasText: '전달됨' }).waitFor();
      assert.match((await delivered.textContent()) ?? '', /HTTP 200/);
      const [got] = await receiver.waitFor(1);
      const h = got!.headers;
      assert.ok(verifySignature(secret, String(h['webhook-id']), String(h['webhook-timestamp']), got!.body, String(h['webhook-signature']), Math.floor(clock / 1000)));
      assert.equal(await delivered.getAttribute('data-delivery'), h['webhook-id']);
      await delivered.getByText('시도 기록과 본문').click();
      assert.match((await delivered.locator('.attempt-list').textContent()) ?? '', /1번째 시도 .* HTTP 200/);
      assert.match((await delivered.locator('.payload').textContent()) ?? '', /"type": "webhook.test"/);
      await screenshot(page, `${kind}-desktop-12-webhook-log`);

      // choose the events: only closures and suspensions; the secret stays
      const picker = page.getByTestId('event-picker');
      for (const box of await picker.getByRole('checkbox').all()) {
        const value = await box.getAttribute('value');
        if ((value === 'watch.closed' || value === 'watch.suspended') !== (await box.isChecked())) await box.click();
      }
      await picker.getByRole('button', { name: '이벤트 선택 저장' }).click();
      await page.getByRole('status').filter({ hasText: '받을 이벤트를 저장했습니다' }).waitFor();
      const chosen = await (await ctx.request.get(`${srv.url}/console/api/webhook`)).json();
      assert.deepEqual(chosen.enabled_events, ['watch.closed', 'watch.suspended']);
      assert.equal(await page.getByTestId('secret-hint').textContent(), `${secret.slice(0, 10)}…`);
      await screenshot(page, `${kind}-desktop-13-webhook-events`);
    } finally {
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });

  test('phone (390×844): watch list, history and webhook screens fit the width; removing the endpoint asks first', async () => {
    const { ctx, page } = await newPage(browser, srv, PHONE);
    watchErrors(page, errors, EXPECTED_FAILURES);
    try {
      await signIn(page, srv.url, who);
      await page.getByRole('link', { name: '감시 목록' }).click();
      await page.locator(`tr[data-watch="${bno}"]`).waitFor();
      await noSideways(page);
      await screenshot(page, `${kind}-phone-7-watch-add`, { viewport: true });
      await page.locator(`tr[data-watch="${bno}"]`).scrollIntoViewIfNeeded();
      await screenshot(page, `${kind}-phone-8-watch-list`, { viewport: true });
      await page.getByRole('link', { name: `${hyphenated(bno)} 변경 이력` }).click();
      await page.getByTestId('history-entry').nth(1).waitFor();
      await noSideways(page);
      await screenshot(page, `${kind}-phone-9-history`);
      await page.getByRole('link', { name: '웹훅', exact: true }).click();
      const delivered = page.getByTestId('deliveries').locator('tbody tr').first();
      await delivered.getByTestId('delivery-state').filter({ hasText: '전달됨' }).waitFor();
      await delivered.getByText('시도 기록과 본문').click();
      await noSideways(page);
      await screenshot(page, `${kind}-phone-10-webhook`);

      await page.getByRole('button', { name: '엔드포인트 삭제' }).click();
      const confirm = page.getByRole('dialog', { name: '웹훅 엔드포인트 삭제' });
      await confirm.waitFor();
      await screenshot(page, `${kind}-phone-11-webhook-remove`, { viewport: true });
      await confirm.getByRole('button', { name: '삭제하기' }).click();
      await page.getByRole('status').filter({ hasText: '엔드포인트를 삭제했습니다' }).waitFor();
      await page.getByText('설정한 엔드포인트가 없습니다').waitFor();
      assert.equal((await ctx.request.get(`${srv.url}/console/api/webhook`)).status(), 404);
    } finally {
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });

  test('a free account sees that the business plan is needed, on a desktop and a phone', async () => {
    for (const [viewport, name] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
      const { ctx, page } = await newPage(browser, srv, viewport);
      watchErrors(page, errors);
      try {
        await signUp(page, srv.url, `free-${name}-${kind}-${Date.now()}@example.com`);
        await page.getByRole('link', { name: '감시 목록' }).click();
        const gate = page.getByTestId('plan-needed');
        await gate.waitFor();
        assert.ok(await gate.getByRole('heading', { name: 'business 요금제가 필요합니다' }).isVisible());
        assert.match((await gate.textContent()) ?? '', /현재 요금제는 free입니다/);
        assert.equal(await page.getByLabel('사업자등록번호').count(), 0, 'no form to fill in vain');
        await noSideways(page);
        await screenshot(page, `${kind}-${name}-13-watch-plan-needed`, { viewport: true });
        await page.getByRole('link', { name: '웹훅', exact: true }).click();
        await page.getByTestId('plan-needed').getByText('웹훅(감시 중인 사업자의').waitFor();
        await screenshot(page, `${kind}-${name}-14-webhook-plan-needed`, { viewport: true });
        // English too
        await page.getByRole('button', { name: 'English' }).click();
        await page.getByRole('heading', { name: 'The business plan is needed' }).waitFor();
        await page.getByRole('button', { name: '한국어' }).click();
      } finally {
        await ctx.close();
      }
    }
    assert.deepEqual(errors, []);
  });
}

describe('console watch and webhooks in Chromium [sqlite]', { skip: NO_CHROMIUM }, () => watchSuite('sqlite'));
describe('console watch and webhooks in Chromium [postgres]', { skip: NO_CHROMIUM || (PG_URL ? false : 'TEST_DATABASE_URL not set') }, () => watchSuite('postgres'));
