/**
 * The document against the service, property-based: the engine of `npm run fuzz` (`test/support/fuzz/`),
 * bounded for `npm test`. Requests generated from docs/openapi.json for every operation, valid and invalid, to
 * the local gateway, each case as a new owner; the gateway asks a test DNS server, where the fuzzer publishes a
 * domain's record for half the verify cases and the address of every webhook URL's host (public, or private for
 * `private-` names). It fails on any 5xx, any answer the document does not allow, a status the request should not
 * get, a 2xx unlike a following GET, a refused request that changed something.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';
import { describeReport } from '#test/support/fuzz/report.ts';
import { fuzz } from '#test/support/fuzz/runner.ts';
import { startTestGateway } from '#test/support/http.ts';
import { document, documentOperations } from '#test/support/openapi.ts';

/** The fuzzer's own operations besides the document's: each path's other methods, and paths it does not have. */
const otherPaths = [
  ...Object.keys(document.paths).map((path) => `other methods on ${path}`),
  'paths the API does not have',
];

/**
 * Sized for a shared 2-core machine: 300 cases, every operation its share (the fuzzer deals them round), each
 * run to the end whatever the machine's speed (the time limit only guards a stuck run); the seed is printed.
 */
const RUNS = 300;
const TIME_LIMIT_MS = 150_000;

/**
 * Where the DNS server points every public host of a webhook URL: a public address (example.com's), so that the
 * URLs are taken as on AWS. Nothing is sent there: this gateway runs no delivery worker, and a test delivery's
 * host is pointed at a private address first (refused before any connection).
 */
const PUBLIC_ADDRESS = '93.184.215.14';

/** The AWS rules for webhook URLs: https only, never to loopback (the local stack's loopback rule is off). */
const LOOPBACK_ALLOWED = false;

let gateway: Gateway;
let dns: DnsTestServer;
let config: WebhookConfig;

beforeAll(async () => {
  dns = await startDnsServer();
  config = { ...configWithDns(dns), webhookLocalLoopback: LOOPBACK_ALLOWED };
  gateway = await startTestGateway({ config });
});
afterAll(async () => {
  await gateway.close();
  await dns.close();
});

describe('the document against the service (fast-check)', () => {
  it(
    `answers ${RUNS} generated requests as the document says`,
    async () => {
      // Act
      const report = await fuzz(
        {
          apiUrl: `${gateway.url}/api/v1`,
          newKey: async () => (await createApiKey(db, `fuzz-${randomUUID()}`, 'fuzz')).key,
          dns,
          webhooks: { loopbackAllowed: LOOPBACK_ALLOWED, publicAddress: PUBLIC_ADDRESS, delivers: false },
        },
        { runs: RUNS, timeLimitMs: TIME_LIMIT_MS, concurrency: 4 },
      );
      // Assess: every case ran, on every operation of the document, without a failure.
      console.info(describeReport(report));
      expect(report.failures, describeReport(report)).toEqual([]);
      expect(report.environment).toEqual([]);
      expect(report.cases).toBe(RUNS);
      expect(Object.keys(report.statuses).sort()).toEqual(
        [...documentOperations().map(({ operation }) => operation.operationId), ...otherPaths].sort(),
      );
    },
    TIME_LIMIT_MS + 30_000,
  );
});
