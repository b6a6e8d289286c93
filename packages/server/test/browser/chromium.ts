import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, as .ci/run installs it; `VSF_CHROMIUM_PATH` points elsewhere. */
export const CHROMIUM = process.env.VSF_CHROMIUM_PATH ?? '/usr/bin/chromium';
export const IN_CI = process.env.CI === 'true' || process.env.CI === '1';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
/** Outside CI a machine without Chromium skips the browser suites; in CI they fail instead. */
export const SKIP_BROWSER = !HAVE_CHROMIUM && !IN_CI;
/** Screenshots of each step, for a person to look at (gitignored). */
export const ARTIFACTS = fileURLToPath(new URL('./artifacts/', import.meta.url));

// Without the background-networking flags Chromium keeps dialing Google's hosts, which this network refuses.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function warnIfSkipped(suite: string): void {
  if (SKIP_BROWSER) {
    console.warn(
      `! ${suite} browser test skipped: no Chromium at ${CHROMIUM}. Install it (apt-get install chromium) or set VSF_CHROMIUM_PATH.`,
    );
  }
}

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Script errors, CSP violations and failed requests seen so far. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh Chromium profile with clipboard access for `origin`, reporting what goes wrong in its page. */
export async function openBrowser(origin: string): Promise<BrowserSession> {
  if (!HAVE_CHROMIUM) {
    throw new Error(`No Chromium at ${CHROMIUM}: CI must install it (.ci/run runs apt-get install chromium).`);
  }
  const userDataDir = await mkdtemp(join(tmpdir(), 'vsf-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  // Refused requests are logged as failed loads too: the response listener reports those, with their URL.
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(`console: ${message.text()}`);
    }
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  return {
    context,
    page,
    problems,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
