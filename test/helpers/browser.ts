// Real headless Chromium from the system (Debian's `chromium`), driven by playwright-core.
// Never a downloaded browser: without /usr/bin/chromium (or CHROMIUM_PATH) the tests skip and say why.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

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
