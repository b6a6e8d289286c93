import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/runtime/start-server.js';
import { migratedPglite } from '../../src/testing/migrated-pglite.js';
import { testServerConfig } from '../../src/testing/start-test-server.js';
import { ARTIFACTS, type BrowserSession, openBrowser, SKIP_BROWSER, warnIfSkipped } from './chromium.js';

// A new user's first minutes, in a real Chromium: `vsf-server start` made the demo team, /docs shows the
// API with the demo key filled in, a call is tried from the page, and the example it shows is copied.

warnIfSkipped('/docs');

/** Scrolls the page to `y` (the test's code has no DOM types: the function is the page's); true at the bottom. */
const scrollPage = (page: Page, y: number): Promise<boolean> =>
  page.evaluate(
    `(() => { window.scrollTo(0, ${y}); return ${y} >= document.documentElement.scrollHeight - window.innerHeight; })()`,
  ) as Promise<boolean>;

/**
 * The operation block of one method and path in Swagger UI, scrolled into the page first: a long document
 * is rendered virtually, so a block exists only while it is near the viewport.
 */
async function operation(page: Page, method: string, path: string) {
  const block = page
    .locator(`.opblock-${method}`)
    .filter({ has: page.locator(`.opblock-summary-path[data-path="${path}"]`) });
  for (let y = 0; (await block.count()) === 0; y += 300) {
    if (await scrollPage(page, y)) throw new Error(`no ${method.toUpperCase()} ${path} in the page`);
    await page.waitForTimeout(40);
  }
  await block.scrollIntoViewIfNeeded();
  return block;
}

describe.skipIf(SKIP_BROWSER)('/docs in Chromium', () => {
  let running: RunningServer;
  let browser: BrowserSession;
  let origin: string;

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    running = await startServer(testServerConfig(), { bootstrapDemo: true, pglite: await migratedPglite() });
    origin = running.url.replace('localhost', '127.0.0.1');
    browser = await openBrowser(origin);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  it('renders every operation of the served document, offline, with the demo key filled in', async () => {
    const { page } = browser;
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:')) external.push(request.url());
    });
    await page.goto(`${origin}/docs`);
    await page.locator('.opblock').first().waitFor();
    const document = (await (await fetch(`${origin}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
    // Swagger UI renders a document of 150 rows or more virtually (only the operations near the viewport):
    // scroll through it and collect every operation that appears.
    const rendered = new Set<string>();
    for (let y = 0; ; y += 500) {
      for (const id of await page.locator('.opblock').evaluateAll((blocks) => blocks.map((b) => b.id)))
        rendered.add(id);
      if ((await scrollPage(page, y)) && y > 0) break;
      await page.waitForTimeout(40);
    }
    for (const id of await page.locator('.opblock').evaluateAll((blocks) => blocks.map((b) => b.id))) rendered.add(id);
    await scrollPage(page, 0);
    expect(rendered.size).toBe(operations);
    await expect.poll(() => page.locator('.vsf-demo').textContent(), { timeout: 15_000 }).toContain('demo team');
    await page.screenshot({ path: join(ARTIFACTS, 'docs-01-rendered.png'), fullPage: false });
    expect(external).toEqual([]);
  });

  it('tries POST /cars with the example body it shows, then GET /cars, and copies the example call', async () => {
    const { page } = browser;
    const create = await operation(page, 'post', '/cars');
    await create.locator('.opblock-summary').click();
    await create.locator('button.try-out__btn').click();
    // The body editor starts with the document's example: the call is made exactly as the docs show it.
    const example = JSON.parse(await create.locator('textarea.body-param__text').inputValue());
    expect(example).toMatchObject({ make: expect.any(String), model: expect.any(String), year: expect.any(Number) });
    await create.locator('button.execute').click();
    const created = create.locator('.live-responses-table tr.response .response-col_status').first();
    await expect.poll(() => created.textContent(), { timeout: 15_000 }).toBe('201');
    await page.screenshot({ path: join(ARTIFACTS, 'docs-02-tried-post.png'), fullPage: false });

    const list = await operation(page, 'get', '/cars');
    await list.locator('.opblock-summary').click();
    await list.locator('button.try-out__btn').click();
    await list.locator('button.execute').click();
    await expect
      .poll(() => list.locator('.live-responses-table tr.response .response-col_status').first().textContent())
      .toBe('200');
    const body = JSON.parse(
      (await list.locator('.live-responses-table .highlight-code pre').first().textContent()) ?? '{}',
    );
    expect(body.data.map((car: { make: string }) => car.make)).toContain(example.make);

    // The page's own copy button puts the example call on the clipboard, with the key it used.
    await list.locator('.curl-command .copy-to-clipboard button').click();
    const curl = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(curl).toContain(`${origin}/api/v1/cars`);
    expect(curl).toMatch(/x-api-key: vsf_[a-z0-9]{12}\./);
    await page.screenshot({ path: join(ARTIFACTS, 'docs-03-copied-example.png'), fullPage: false });
    expect(browser.problems).toEqual([]);
  });
});
