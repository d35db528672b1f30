/**
 * The README's TypeScript client snippet, run as written against the local stack: the test gateway (a webhook
 * may call this machine, as under `npm start`), a fresh owner's key as `API_KEY`. Only the import (the built
 * package's name, here its source) and the base URL (the stack's port, here the test gateway's) are swapped.
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Gateway } from '../../infra/local/gateway.ts';
import type { WebhookConfig } from '../../lib/webhooks/settings.ts';
import { config } from '../../test/support/database.ts';
import { newClient, startTestGateway } from '../../test/support/http.ts';

const CLIENT = join(import.meta.dirname, '..');
const readme = readFileSync(join(CLIENT, '..', 'README.md'), 'utf8');

let gateway: Gateway;
let dir: string;
beforeAll(async () => {
  gateway = await startTestGateway({ config: { ...config, webhookLocalLoopback: true } as WebhookConfig });
  dir = await mkdtemp(join(CLIENT, 'test', '.readme-'));
});
afterAll(async () => {
  await gateway?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The snippet of the README's client section. */
function snippet(): string {
  const section = readme.slice(readme.indexOf('### The TypeScript client'));
  return /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
}

describe("the README's client snippet", () => {
  it('runs as written against the local stack: a space, the feed, a webhook and its deliveries', async () => {
    // Prepare
    const source = snippet();
    expect(source).toContain("from '@domains-spaces/client'");
    expect(source).toContain("'http://127.0.0.1:3000/api/v1'");
    const file = join(dir, 'snippet.ts');
    await writeFile(
      file,
      source
        .replace("from '@domains-spaces/client'", `from ${JSON.stringify(join(CLIENT, 'src', 'index.ts'))}`)
        .replace("'http://127.0.0.1:3000/api/v1'", JSON.stringify(`${gateway.url}/api/v1`)),
    );
    const { key } = await newClient(gateway);
    vi.stubEnv('API_KEY', key);
    const logged: unknown[][] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    // Act
    try {
      await import(file);
    } finally {
      log.mockRestore();
      vi.unstubAllEnvs();
    }
    // Assess: it listed the space, read the feed and printed the webhook's secret
    const lines = logged.map((args) => args.join(' '));
    expect(lines).toContain('Marketing');
    expect(lines.some((line) => /^\d{12} space\.created$/.test(line))).toBe(true);
    expect(lines.some((line) => /^whsec_/.test(line))).toBe(true);
  });
});
