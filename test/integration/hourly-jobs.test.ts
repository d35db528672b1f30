/**
 * `npm start`'s scheduled jobs (infra/local/hourly-jobs.ts), on a short interval against DynamoDB Local, a DNS
 * server on 127.0.0.1 and the stage's edge on the local CloudFront: each run re-checks the active domains due
 * (here one from before the re-check existed, which the backfill makes due at once) and sweeps the edge's old
 * tombstones; stopping waits for the run in flight.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startHourlyJobs } from '#infra/local/hourly-jobs.ts';
import { startStageEdge } from '#infra/local/stage-edge.ts';
import { showDomain } from '#lib/domains/data/domains.ts';
import { backfillDueChecks } from '#lib/domains/data/migrations/backfill-due-checks.ts';
import { TOMBSTONE_TTL_MS } from '#lib/edge/rules/entry.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns, storeOldShapeDomain } from '#test/support/domains.ts';

let dns: DnsTestServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(() => dns?.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("npm start's scheduled jobs", () => {
  it('re-check the domains due and sweep old tombstones, run after run, until stopped', async () => {
    // Prepare: a domain from before the re-check, made due; its CNAME at the edge; an old tombstone and a new one.
    const owner = `owner-${randomUUID()}`;
    const name = `hourly-${randomUUID().slice(0, 8)}.example`;
    const id = await storeOldShapeDomain(db, owner, name);
    await backfillDueChecks(db);
    const config = configWithDns(dns);
    dns.setCname(name, config.edgeHostname ?? '');
    const stage = await startStageEdge({ config, tenantPrefix: 'domains-spaces-test' });
    onTestFinished(() => stage.close());
    const { store } = stage.edge;
    const old = { s: 'none', t: Date.now() - TOMBSTONE_TTL_MS - 1_000 } as const;
    await store.put('gone.example', old, (await store.read('gone.example')).etag);
    await store.put('recent.example', { s: 'none', t: Date.now() }, (await store.read('recent.example')).etag);
    // Act
    const jobs = startHourlyJobs({ config, db, edge: stage.edge, intervalMs: 100 });
    await sleep(1_000);
    await jobs.stop();
    // Assess
    const checked = await showDomain(db, owner, id);
    expect(checked.check).toEqual({ route: 'found' });
    expect(checked.lastCheckedAt).toEqual(expect.any(String));
    const keys: string[] = [];
    for await (const { key } of store.keys()) keys.push(key);
    expect(keys).toEqual(['recent.example']);
  });
});
