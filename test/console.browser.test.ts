// The console driven in real headless Chromium, as a new user would: sign up, a wrong password,
// issue a key (shown once) and use it against POST /verify, revoke it, drop a CSV and watch the
// progress bar reach done, switch the language; on a desktop and a phone-sized viewport.
// Screenshots land in test-artifacts/console/ (gitignored).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import ExcelJS from 'exceljs';
import { checkDigitOf } from '../src/domain/bizno.ts';
import { DESKTOP, launchChromium, newPage, NO_CHROMIUM, noSideways, PHONE, screenshot, watchErrors } from './helpers/browser.ts';
import { PASSWORD } from './helpers/console.ts';
import { call, startTestServer, type TestServer } from './helpers/server.ts';
import { PG_URL, type StoreKind } from './helpers/stores.ts';

/** A customer list big enough for several chunks: numbers with valid check digits, names, addresses. */
function customerCsv(rows: number): string {
  const lines = ['사업자등록번호,상호,주소', '124-81-00998,(주)테스트상사,서울특별시 강남구 테헤란로 152', '333-33-33336,폐업상회,서울 강남구 테헤란로 152'];
  for (let i = 0; i < rows - 2; i++) {
    const nine = String(220_810_000 + i * 7).padStart(9, '0');
    lines.push(`${nine}${checkDigitOf(nine)},상점${i},서울특별시 중구 세종대로 110`);
  }
  // the total line offices put under a list: skipped, and said on the job's page
  lines.push(`합계,${rows}곳,`);
  return `${lines.join('\n')}\n`;
}

function browserSuite(kind: StoreKind): void {
  let srv: TestServer;
  let browser: Browser;
  const errors: string[] = [];
  const who = `browser-${kind}-${Date.now()}@example.com`;
  let fullKey = '';

  before(async () => {
    // the pages under test are the current sources, not whatever an earlier install built
    execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../scripts/build-console.ts')], { stdio: 'ignore', timeout: 120_000 });
    srv = await startTestServer(kind, { BATCH_CHUNK_ROWS: '10', CONSOLE_SIGNUPS_PER_IP_HOUR: '1000' });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
  });

  test('desktop: sign up, wrong password, key once, bulk upload to done, language switch', async () => {
    const { ctx, page } = await newPage(browser, srv, DESKTOP);
    watchErrors(page, errors);
    try {
      await page.goto(`${srv.url}/console/`);
      await page.getByRole('heading', { name: '로그인' }).waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'ko');
      await screenshot(page, `${kind}-desktop-1-signin`);

      // sign up: a new account on the free plan
      await page.getByRole('button', { name: /가입하기/ }).click();
      await page.getByLabel('이메일').fill(who);
      await page.getByLabel('비밀번호').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.getByTestId('plan').waitFor();
      assert.equal(await page.getByTestId('plan').textContent(), 'free');
      assert.equal(await page.getByTestId('quota-remaining').textContent(), '100');
      // the id an operator needs for `accounts set-plan`, shown to the one who signed up
      const shownId = await page.getByTestId('account-id').textContent();
      assert.equal(shownId, (await srv.store.accounts.findByEmail(who))?.id);
      assert.equal(await page.evaluate('document.cookie'), '', 'the session cookie is httpOnly');
      await screenshot(page, `${kind}-desktop-2-overview`);

      // sign out, then a wrong password, then the right one
      await page.getByRole('button', { name: '로그아웃' }).click();
      await page.getByLabel('이메일').fill(who);
      await page.getByLabel('비밀번호').fill('not my password');
      await page.locator('form button[type=submit]').click();
      await page.getByRole('alert').filter({ hasText: '이메일 또는 비밀번호가 맞지 않습니다' }).waitFor();
      await screenshot(page, `${kind}-desktop-3-wrong-password`);
      await page.getByLabel('비밀번호').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.getByTestId('plan').waitFor();

      // the API needs business: the operator sets it (CLI or store)
      const login = await srv.store.console.findLogin(who);
      await srv.store.accounts.setPlan(login!.account.id, 'business');

      // issue a key: shown once, copied, then gone
      await page.getByRole('link', { name: 'API 키' }).click();
      await page.getByRole('button', { name: '새 API 키 발급' }).click();
      const dialog = page.getByRole('dialog', { name: '새 API 키' });
      await dialog.waitFor();
      fullKey = await dialog.getByLabel('전체 API 키').inputValue();
      assert.match(fullKey, /^bzk_[0-9A-Za-z]{8}_[0-9A-Za-z]{40}$/);
      assert.ok(await dialog.getByText('한 번만 표시됩니다').isVisible());
      assert.ok(await dialog.getByText('서버 측 코드에서만').isVisible());
      await dialog.getByRole('button', { name: '복사' }).click();
      await dialog.getByText('복사했습니다').waitFor();
      assert.equal(await page.evaluate('navigator.clipboard.readText()'), fullKey);
      await screenshot(page, `${kind}-desktop-4-key-once`);
      await dialog.getByRole('button', { name: /닫기/ }).click();
      await dialog.waitFor({ state: 'hidden' });

      // the key works from server-side code
      const verified = await call(srv.url, 'POST', '/verify', { key: fullKey, body: { b_no: '1248100998' } });
      assert.equal(verified.status, 200);
      assert.equal(verified.body.biz_status, 'active');

      // after a reload only the prefix is there, and the browser holds the key nowhere
      await page.reload();
      const prefix = fullKey.slice(0, 12);
      await page.locator(`tr[data-prefix="${prefix}"]`).waitFor();
      const held = String(await page.evaluate('document.documentElement.outerHTML + JSON.stringify(localStorage) + JSON.stringify(sessionStorage) + document.cookie'));
      assert.ok(!held.includes(fullKey.slice(13)), 'the secret part is not in the page or storage');
      await page.getByRole('button', { name: `폐기 ${prefix}` }).waitFor();
      await screenshot(page, `${kind}-desktop-5-keys`);

      // revoke, with confirmation (Esc cancels first)
      await page.getByRole('button', { name: `폐기 ${prefix}` }).click();
      const confirm = page.getByRole('dialog', { name: 'API 키 폐기' });
      await confirm.waitFor();
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'hidden' });
      await page.getByRole('button', { name: `폐기 ${prefix}` }).click();
      await confirm.getByRole('button', { name: '폐기하기' }).click();
      await page.getByRole('status').filter({ hasText: '폐기했습니다' }).waitFor();
      assert.equal((await call(srv.url, 'POST', '/verify', { key: fullKey, body: { b_no: '1248100998' } })).status, 401);

      // bulk: drop a CSV, the bar reaches done, the preview has grades and reasons
      await page.getByRole('link', { name: '대량 검증' }).click();
      await page.getByTestId('dropzone').waitFor();
      // a real drag and drop: a DataTransfer holding the file, dropped on the zone (page context;
      // this file is type-checked without the DOM library, hence the untyped global)
      await page.getByTestId('dropzone').evaluate((zone, csv) => {
        const w = globalThis as any;
        const dt = new w.DataTransfer();
        dt.items.add(new w.File([csv], 'customers.csv', { type: 'text/csv' }));
        zone.dispatchEvent(new w.DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
        zone.dispatchEvent(new w.DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
      }, customerCsv(120));
      await page.getByText('선택한 파일: customers.csv').waitFor();
      await page.getByRole('button', { name: '업로드하고 검증 시작' }).click();
      const bar = page.getByRole('progressbar');
      await bar.waitFor();
      assert.match(page.url(), /\/console\/bulk\/job_/);
      await page.getByTestId('job-status').filter({ hasText: '완료' }).waitFor({ timeout: 90_000 });
      assert.equal(await bar.getAttribute('aria-valuenow'), '100');
      // the results at a glance: grades and statuses as bars, read out as a sentence
      const grades = page.getByTestId('grade-bar').getByRole('img');
      // before any outcome no clean row is judged under 5 % (the prior's clean mailing is ~7 %): the bar starts at B
      assert.match((await grades.getAttribute('aria-label')) ?? '', /^등급: B \d+, C \d/);
      assert.match((await page.getByTestId('status-bar').getByRole('img').getAttribute('aria-label')) ?? '', /폐업자 1/);
      assert.equal(await page.getByTestId('file-notices').textContent(), '합계·소계 행 1개는 거래처가 아니어서 건너뛰었습니다 (조회·과금 없음).');
      const preview = page.getByTestId('preview');
      await preview.waitFor();
      assert.equal(await preview.locator('tbody tr').count(), 20);
      const closedRow = preview.locator('tbody tr').nth(1);
      assert.match((await closedRow.textContent()) ?? '', /폐업자/);
      assert.match((await closedRow.locator('.grade').getAttribute('class')) ?? '', /grade-[DE]/);
      assert.match((await closedRow.locator('.reasons').textContent()) ?? '', /\[closed \+\d/);
      const csvHref = await page.getByRole('link', { name: 'CSV', exact: true }).getAttribute('href');
      const download = await ctx.request.get(`${srv.url}${csvHref}`);
      assert.equal(download.status(), 200);
      assert.match(await download.text(), /폐업상회/);
      await page.getByTestId('jobs').getByRole('link', { name: 'customers.csv' }).waitFor();
      await screenshot(page, `${kind}-desktop-6-bulk-done`);

      // watch them all: the job's valid numbers go on the watch list, nothing more charged
      const usedBefore = ((await (await ctx.request.get(`${srv.url}/console/api/account`)).json()) as { quota: { used: number } }).quota.used;
      await page.getByRole('button', { name: '모두 감시 목록에 추가' }).click();
      const result = page.getByTestId('watch-all-result');
      await result.filter({ hasText: '감시 목록에 추가했습니다' }).waitFor();
      const watched = (await (await ctx.request.get(`${srv.url}/console/api/watch?limit=1`)).json()) as { total: number };
      assert.ok(watched.total > 100, `${watched.total} watched`);
      assert.match((await result.textContent()) ?? '', new RegExp(`${watched.total.toLocaleString('ko-KR')}곳을 감시 목록에 추가했습니다 \\(이미 감시 중 0곳\\)`));
      assert.ok(await page.getByRole('button', { name: '모두 감시 목록에 추가' }).isDisabled(), 'once is enough');
      const usedAfter = ((await (await ctx.request.get(`${srv.url}/console/api/account`)).json()) as { quota: { used: number } }).quota.used;
      assert.equal(usedAfter, usedBefore, 'the job\'s answers are the first check');

      // the day's lookups on the overview, as a chart read out as a sentence
      await page.getByRole('link', { name: '계정과 사용량' }).click();
      const daily = page.getByTestId('daily-usage').getByRole('img');
      await daily.waitFor();
      assert.match((await daily.getAttribute('aria-label')) ?? '', new RegExp(`^최근 30일 조회 ${usedAfter.toLocaleString('ko-KR')}건`));
      assert.equal(await page.getByTestId('daily-usage').locator('.usage-bar').count(), 30);
      await screenshot(page, `${kind}-desktop-7-usage`);

      // 진위확인, one business: the form says what is missing before sending; a match shows the status
      await page.getByRole('link', { name: '진위확인' }).click();
      await page.getByRole('heading', { name: '사업자 진위확인' }).waitFor();
      await page.getByLabel('사업자등록번호').fill('124-81-00998');
      await page.getByRole('button', { name: '진위확인', exact: true }).click();
      await page.getByRole('alert').filter({ hasText: '개업일자를 날짜로 적어 주세요' }).waitFor();
      await page.getByRole('alert').filter({ hasText: '대표자 성명을 적어 주세요' }).waitFor();
      await page.getByLabel('개업일자').fill('1996-02-14');
      await page.getByLabel('대표자 성명').fill('홍길동');
      await page.getByRole('button', { name: '진위확인', exact: true }).click();
      const verdict = page.getByTestId('validate-result');
      await verdict.filter({ hasText: '일치' }).waitFor();
      assert.match((await verdict.textContent()) ?? '', /계속사업자/);
      await screenshot(page, `${kind}-desktop-6-validate-match`);
      // its receipt, printable, names what NTS answered and the key that signed it
      await verdict.getByRole('link', { name: '증빙' }).click();
      await page.getByRole('heading', { name: '조회 증빙' }).waitFor();
      const shown = page.getByTestId('receipt');
      await shown.waitFor();
      assert.match((await shown.textContent()) ?? '', /국세청 사업자등록 진위확인/);
      assert.match((await shown.textContent()) ?? '', /bizcheck-signing-key/);
      await screenshot(page, `${kind}-desktop-6-receipt`);
      await page.goBack();
      await page.getByRole('heading', { name: '사업자 진위확인' }).waitFor();
      await page.getByLabel('사업자등록번호').fill('124-81-00998');
      await page.getByLabel('개업일자').fill('1996-02-14');
      await page.getByLabel('대표자 성명').fill('김철수');
      await page.getByRole('button', { name: '진위확인', exact: true }).click();
      await verdict.filter({ hasText: '불일치' }).waitFor();
      assert.match((await verdict.textContent()) ?? '', /국세청 답변: 확인할 수 없습니다\./);
      const usedValidated = ((await (await ctx.request.get(`${srv.url}/console/api/account`)).json()) as { quota: { used: number } }).quota.used;
      assert.equal(usedValidated, usedAfter + 2, 'each answered check is one lookup');

      // delete a job: asked first, then gone from the list and from the server (another file:
      // the phone test reads customers.csv)
      const session = (await (await ctx.request.get(`${srv.url}/console/api/session`)).json()) as { csrf_token: string };
      const extra = await ctx.request.post(`${srv.url}/console/api/batch`, {
        multipart: { file: { name: 'delete-me.csv', mimeType: 'text/csv', buffer: Buffer.from(customerCsv(3)) } },
        headers: { 'x-csrf-token': session.csrf_token, origin: srv.url },
      });
      assert.equal(extra.status(), 202, await extra.text());
      await page.getByRole('link', { name: '대량 검증' }).click();
      await page.getByTestId('jobs').getByRole('link', { name: 'delete-me.csv' }).click();
      await page.getByTestId('job-status').filter({ hasText: '완료' }).waitFor();
      const jobUrl = page.url();
      await page.getByRole('button', { name: '작업 삭제' }).click();
      const sure = page.getByRole('dialog', { name: '작업 삭제' });
      await sure.waitFor();
      assert.match((await sure.textContent()) ?? '', /되돌릴 수 없습니다/);
      await sure.getByRole('button', { name: '삭제' }).click();
      await page.getByRole('status').filter({ hasText: 'delete-me.csv 작업을 삭제했습니다' }).waitFor();
      assert.match(page.url(), /\/console\/bulk$/);
      await page.getByTestId('dropzone').waitFor();
      // the list reloads after the deletion
      await page.getByTestId('jobs').getByRole('link', { name: 'delete-me.csv' }).waitFor({ state: 'detached' });
      await page.getByTestId('jobs').getByRole('link', { name: 'customers.csv' }).waitFor();
      const gone = await ctx.request.get(`${srv.url}/console/api/batch/${jobUrl.split('/').pop()}`);
      assert.equal(gone.status(), 404);

      // English, kept across a reload
      await page.getByRole('link', { name: '계정과 사용량' }).click();
      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'Account & usage' }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: 'Account & usage' }).waitFor();
      assert.equal(await page.getAttribute('html', 'lang'), 'en');
      await screenshot(page, `${kind}-desktop-7-english`);
      await page.getByRole('button', { name: '한국어' }).click();
      await page.getByRole('heading', { name: '계정과 사용량' }).waitFor();
    } finally {
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });

  test('phone (390×844): signed in by keyboard alone, every screen fits the width', async () => {
    const { ctx, page } = await newPage(browser, srv, PHONE);
    watchErrors(page, errors);
    try {
      await page.goto(`${srv.url}/console/`);
      await page.getByRole('heading', { name: '로그인' }).waitFor();
      await noSideways(page);
      await screenshot(page, `${kind}-phone-1-signin`);
      await page.getByLabel('이메일').focus();
      await page.keyboard.type(who);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByTestId('plan').waitFor();
      await noSideways(page);
      // the tab bar is wider than a phone: it scrolls, and a shadow at its edge says so
      const tabs = page.locator('.tabs');
      const bar = await tabs.evaluate((el) => ({ scrolls: el.scrollWidth > el.clientWidth, image: (globalThis as any).getComputedStyle(el).backgroundImage as string }));
      assert.ok(bar.scrolls, 'the tabs overflow a phone');
      assert.match(bar.image, /radial-gradient/, 'with a scroll shadow');
      await screenshot(page, `${kind}-phone-2-overview`);
      await page.getByRole('link', { name: 'API 키' }).click();
      await page.getByRole('heading', { name: 'API 키' }).waitFor();
      await page.getByRole('button', { name: '새 API 키 발급' }).click();
      await page.getByRole('dialog', { name: '새 API 키' }).waitFor();
      await screenshot(page, `${kind}-phone-3-key-once`);
      await page.keyboard.press('Escape');
      await page.locator('tr[data-prefix]').first().waitFor();
      await noSideways(page);
      await screenshot(page, `${kind}-phone-4-keys`);
      await page.getByRole('link', { name: '대량 검증' }).click();
      await page.getByTestId('jobs').getByRole('link', { name: 'customers.csv' }).click();
      await page.getByTestId('job-status').filter({ hasText: '완료' }).waitFor();
      await page.getByTestId('preview').waitFor();
      await noSideways(page);
      await screenshot(page, `${kind}-phone-5-bulk`, { viewport: true });
      await page.getByTestId('preview').scrollIntoViewIfNeeded();
      await screenshot(page, `${kind}-phone-6-preview`, { viewport: true });
    } finally {
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });

  test('a workbook whose columns are not recognised: the mapping step shows its first rows, the user picks sheet and columns, the job reads them', async () => {
    const { ctx, page } = await newPage(browser, srv, DESKTOP);
    watchErrors(page, errors);
    const mapper = `mapper-${kind}-${Date.now()}@example.com`;
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('안내').addRow(['거래처 목록 작성 안내']);
    const ws = wb.addWorksheet('거래처');
    ws.addRow(['번호', '고객 이름', '위치']);
    for (let i = 0; i < 8; i++) {
      const nine = String(220_820_000 + i * 7).padStart(9, '0');
      ws.addRow([`${nine}${checkDigitOf(nine)}`, `가게${i}`, '서울특별시 중구 세종대로 110']);
    }
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    try {
      await page.goto(`${srv.url}/console/`);
      await page.getByRole('button', { name: /가입하기/ }).click();
      await page.getByLabel('이메일').fill(mapper);
      await page.getByLabel('비밀번호').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.getByTestId('plan').waitFor();
      await page.getByRole('link', { name: '대량 검증' }).click();
      await page.locator('#bulk-file').setInputFiles({ name: '거래처.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
      const mapping = page.getByTestId('mapping');
      await mapping.waitFor();
      await mapping.getByText('사업자등록번호 열을 알아보지 못했습니다').waitFor();
      const upload = page.getByRole('button', { name: '업로드하고 검증 시작' });
      assert.ok(await upload.isDisabled(), 'not before a number column is chosen');
      // the sheet with the list, then its columns
      await page.getByTestId('map-sheet').selectOption('거래처');
      await page.getByTestId('map-bno').waitFor();
      await page.getByTestId('map-bno').selectOption('번호');
      await page.getByTestId('map-name').selectOption('고객 이름');
      await page.getByTestId('map-address').selectOption('위치');
      assert.match((await mapping.locator('table').textContent()) ?? '', /가게0/);
      assert.equal(await mapping.locator('th.chosen-column').count(), 3);
      await screenshot(page, `${kind}-desktop-9-mapping`);
      await upload.click();
      await page.getByTestId('job-status').filter({ hasText: '완료' }).waitFor({ timeout: 60_000 });
      const jobId = decodeURIComponent(page.url().split('/bulk/')[1]!);
      const job = (await (await ctx.request.get(`${srv.url}/console/api/batch/${jobId}`)).json()) as { total: number; file: { sheet: string; number_column: string; name_column: string; address_column: string } };
      assert.deepEqual([job.total, job.file.sheet, job.file.number_column, job.file.name_column, job.file.address_column], [8, '거래처', '번호', '고객 이름', '위치']);
      // business numbers read as 000-00-00000, on one line
      const first = page.getByTestId('preview').locator('tbody tr').first().locator('td.bno');
      assert.match((await first.textContent()) ?? '', /^\d{3}-\d{2}-\d{5}$/);
      assert.equal(await first.evaluate((el) => (globalThis as any).getComputedStyle(el).whiteSpace), 'nowrap');
    } finally {
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });

  test('an account closes itself from its overview, confirming its password, and is signed out', async () => {
    const { ctx, page } = await newPage(browser, srv, DESKTOP);
    watchErrors(page, errors);
    const leaving = `leaving-${kind}-${Date.now()}@example.com`;
    try {
      await page.goto(`${srv.url}/console/`);
      await page.getByRole('button', { name: /가입하기/ }).click();
      await page.getByLabel('이메일').fill(leaving);
      await page.getByLabel('비밀번호').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.getByTestId('plan').waitFor();
      const close = page.getByRole('button', { name: '계정 삭제' });
      assert.ok(await close.isDisabled(), 'not without the password');
      await page.getByLabel('확인을 위해 비밀번호').fill(PASSWORD);
      await close.click();
      await page.getByRole('heading', { name: '로그인' }).waitFor();
      assert.equal(await srv.store.console.findLogin(leaving), null, 'the account is gone');
    } finally {
      await ctx.close();
    }
    assert.deepEqual(errors, []);
  });
}

describe('console in Chromium [sqlite]', { skip: NO_CHROMIUM }, () => browserSuite('sqlite'));
describe('console in Chromium [postgres]', { skip: NO_CHROMIUM || (PG_URL ? false : 'TEST_DATABASE_URL not set') }, () => browserSuite('postgres'));
