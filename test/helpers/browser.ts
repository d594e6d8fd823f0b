// Real headless Chromium from the system (Debian's `chromium`), driven by playwright-core.
// Never a downloaded browser: without /usr/bin/chromium (or CHROMIUM_PATH) the tests skip and say why.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const NO_CHROMIUM = existsSync(CHROMIUM) ? false : `no Chromium at ${CHROMIUM}: apt-get install chromium (.ci/run does)`;

/** gitignored; screenshots of each run land here for people to look at */
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/console');

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 860 };

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    chromiumSandbox: false,
    // a closed network: anything Chromium would fetch for itself is switched off, or it stalls
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage',
    ],
  });
}

/** The whole page by default; `viewport` for what fits the screen (long pages on a phone). */
export async function screenshot(page: Page, name: string, opts: { viewport?: boolean } = {}): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: !opts.viewport });
  return file;
}

/**
 * Collects page errors and console errors. The first GET /console/api/session of a signed-out
 * page answers 401 by design; `expected` names other failed requests a test causes on purpose.
 */
export function watchErrors(page: Page, errors: string[], expected: RegExp[] = []): void {
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error' || /status of 401/.test(m.text())) return;
    const where = `${m.text()} @ ${m.location().url}`;
    if (!expected.some((re) => re.test(where))) errors.push(`console: ${where}`);
  });
}

export async function newPage(browser: Browser, srv: { url: string }, viewport: { width: number; height: number }): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport, locale: 'ko-KR', timezoneId: 'Asia/Seoul' });
  await ctx.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: srv.url });
  const page = await ctx.newPage();
  page.setDefaultTimeout(30_000);
  return { ctx, page };
}

export async function noSideways(page: Page): Promise<void> {
  // expressions run in the page (the tests are type-checked without the DOM library)
  const { scroll, width } = (await page.evaluate('({ scroll: document.documentElement.scrollWidth, width: window.innerWidth })')) as { scroll: number; width: number };
  assert.ok(scroll <= width, `the page scrolls sideways: ${scroll} > ${width}`);
}
