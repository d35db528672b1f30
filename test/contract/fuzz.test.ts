/**
 * The document against the service, property-based: the engine of `npm run fuzz` (`test/support/fuzz/`),
 * bounded for `npm test`. Requests generated from docs/openapi.json for every operation, valid and invalid, to
 * the local gateway, each case as a new owner; verify asks a test DNS server, which publishes the record for
 * half the cases. It fails on any 5xx, any answer the document does not allow, a status the request should not
 * get, a 2xx unlike a following GET, a refused request that changed something.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { createApiKey } from '#lib/data/api-key-admin.ts';
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

let gateway: Gateway;
let dns: DnsTestServer;

beforeAll(async () => {
  dns = await startDnsServer();
  gateway = await startTestGateway({ config: configWithDns(dns) });
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
          publishTxt: (name, values) => dns.setTxt(name, values),
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
