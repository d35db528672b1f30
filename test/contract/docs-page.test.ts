/**
 * The reference page (`docs/api.html`, rendered by `npm run openapi`) in a real headless Chromium, as the
 * local gateway serves it at `/docs`: it loads with the network cut off and lists every operation.
 */
import { existsSync, readFileSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { buildDocsPage, OPENAPI_FILE } from '#lib/openapi/files.ts';
import { DOCS_PATH, OPENAPI_PATH } from '#lib/openapi/public.ts';
import { chromiumPath, DEFAULT_CHROMIUM } from '#test/support/chromium.ts';
import { startTestGateway } from '#test/support/http.ts';
import { document, documentOperations } from '#test/support/openapi.ts';

/** Debian's Chromium by default; `CHROMIUM_PATH` names another executable (Chrome, a Chromium elsewhere). */
const CHROMIUM = chromiumPath();
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

let gateway: Gateway;
let browser: Browser | undefined;

beforeAll(async () => {
  await buildDocsPage();
  gateway = await startTestGateway();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

/** The Chromium of `CHROMIUM`; its absence fails the test (it is never skipped). */
async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install it with \`apt-get install -y chromium\` (.ci/run does), or set CHROMIUM_PATH to a Chromium or Chrome executable.`,
    );
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  return browser;
}

/** Opens /docs with every request that leaves the gateway refused, as on a machine without network. */
async function openDocs(): Promise<{ page: Page; status: number | undefined; errors: string[] }> {
  const page = await (await launchChromium()).newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.route('**/*', (route) =>
    route.request().url().startsWith(gateway.url) ? route.continue() : route.abort(),
  );
  const response = await page.goto(`${gateway.url}${DOCS_PATH}`);
  return { page, status: response?.status(), errors };
}

describe('the browser', () => {
  it('is /usr/bin/chromium unless CHROMIUM_PATH names another', () => {
    // Act / Assess
    expect(chromiumPath({})).toBe(DEFAULT_CHROMIUM);
    expect(DEFAULT_CHROMIUM).toBe('/usr/bin/chromium');
    expect(chromiumPath({ CHROMIUM_PATH: '' })).toBe('/usr/bin/chromium');
    expect(chromiumPath({ CHROMIUM_PATH: '/opt/google/chrome/chrome' })).toBe('/opt/google/chrome/chrome');
  });
});

describe('the published documents', () => {
  it('serves the OpenAPI document and the page without a key', async () => {
    // Act
    const spec = await fetch(`${gateway.url}${OPENAPI_PATH}`);
    const html = await fetch(`${gateway.url}${DOCS_PATH}`);
    // Assess
    expect(spec.status).toBe(200);
    expect(spec.headers.get('content-type')).toBe('application/json');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('names the gateway’s own address (here a random port) as the local server, in both', async () => {
    // Prepare: the committed document names the default port.
    const committed = readFileSync(OPENAPI_FILE, 'utf8');
    const documented = 'http://127.0.0.1:3000';
    // Act
    const spec = await (await fetch(`${gateway.url}${OPENAPI_PATH}`)).text();
    const html = await (await fetch(`${gateway.url}${DOCS_PATH}`)).text();
    // Assess: the same document, with only that origin replaced.
    expect(gateway.url).not.toBe(documented);
    expect(JSON.parse(spec).servers[0].url).toBe(`${gateway.url}/api/v1`);
    expect(spec).toBe(committed.replaceAll(documented, gateway.url));
    expect(html).toContain(`"servers":[{"url":"${gateway.url}/api/v1"`);
    expect(html).not.toContain(documented);
  });

  it('renders offline in Chromium and lists all operations (PUT and PATCH of update apart, HEAD, verify, the feed, the account, this document, and what a webhook is sent)', async () => {
    // Prepare: the paths' operations, and the webhooks section's (what an endpoint receives).
    const received = Object.entries(
      (document as unknown as { webhooks: Record<string, { post: { summary: string; tags: string[] } }> }).webhooks,
    ).map(([name, item]) => ({ path: `webhook:${name}`, method: 'post', ...item.post }));
    const operations = [
      ...documentOperations().map(({ path, method, operation }) => ({
        path,
        method: method.toLowerCase(),
        ...operation,
      })),
      ...received,
    ];
    // Act: open each tag in the side menu, then look for its operations there (summary and method).
    const { page, status, errors } = await openDocs();
    const listed: number[] = [];
    for (const tag of document.tags.map(({ name }) => name)) {
      // Redoc names a tag's link after its slug (`Receiving deliveries`: `/receiving-deliveries`).
      await page.locator(`a[href="/${tag.toLowerCase().replaceAll(' ', '-')}"]`).click();
      for (const { summary, method } of operations.filter((operation) => operation.tags.includes(tag))) {
        const item = page.getByRole('link', { name: `${summary} ${method}`, exact: true });
        await item.waitFor({ state: 'visible', timeout: 15_000 });
        listed.push(await item.count());
      }
    }
    // Assess
    expect(status).toBe(200);
    expect(await page.title()).toBe('Domains and Spaces API');
    expect(new Set(operations.map(({ path }) => path)).size).toBe(13 + 2);
    expect(listed).toEqual(operations.map(() => 1));
    expect(operations).toHaveLength(35 + 2);
    expect(errors).toEqual([]);
  }, 60_000);
});
