/**
 * A domain's whole life at the edge, against the local CloudFront with CloudFront's rules (test/support's DNS
 * server answering its ownership check), through the real SDK clients and the edge sync's own function module,
 * fed the bus events of the domain's changes as the EventBridge rule would: store → verify TXT →
 * `waiting_for_dns` (no tenant, no CloudFront call that fails) → CNAME published → the re-check's event →
 * tenant in the stage's connection group → `provisioning` → certificate issued and deployed → `active` →
 * page update → served → delete → tenant disabled → swept. Visitors are answered by the local edge, which
 * routes by tenant as CloudFront does.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create as createSync, type SyncEvent } from '#functions/edge/sync.ts';
import { type Edge, startEdge } from '#infra/local/edge.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { type LocalStageEdge, startStageEdge } from '#infra/local/stage-edge.ts';
import { type FeedPosition, listEvents } from '#lib/data/events.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { recordsLookup } from '#lib/domains/lookups.ts';
import { runDueChecks } from '#lib/domains/recheck.ts';
import { FAST_RECHECK_INTERVAL_MS } from '#lib/domains/rules/dns-records.ts';
import { TOMBSTONE_TTL_MS } from '#lib/edge/rules/entry.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import { sweepEdge } from '#lib/edge/sweep.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns, publish } from '#test/support/domains.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';

const DOMAINS = '/api/v1/domains';

let dns: DnsTestServer;
let gateway: Gateway;
let stage: LocalStageEdge;
let edge: Edge;
let config: EdgeConfig;

beforeAll(async () => {
  dns = await startDnsServer();
  const withDns = configWithDns(dns);
  gateway = await startTestGateway({ config: withDns });
  // Certificates and deployments move when the test says, as CloudFront's take minutes.
  stage = await startStageEdge({
    config: withDns,
    tenantPrefix: 'domains-spaces-test',
    certificates: 'manual',
    deployment: 'manual',
  });
  config = stage.config;
  edge = await startEdge({
    cloudFront: stage.cloudFront,
    kvsArn: stage.kvsArn,
    distributionId: stage.distributionId,
    settings: { defaultIndexPage: '', defaultNotFoundPage: '', cacheSeconds: 60 },
  });
});
afterAll(async () => {
  await edge?.close();
  await stage?.close();
  await gateway?.close();
  await dns?.close();
});

/** A visit to the edge at `host` (node:http: fetch may not set Host). */
/** The stage's one shard, as the sweep goes through it: its store and its tenants. */
const shardOf = (edge: LocalStageEdge['edge']) => ({
  store: edge.store,
  ...(edge.tenants ? { tenants: edge.tenants } : {}),
});

function visit(host: string, path = '/') {
  return new Promise<{ status: number; location: string | null }>((resolve, reject) => {
    const req = request(`${edge.url}${path}`, { headers: { host } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: (res.headers.location as string) ?? null }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The bus: every domain event of the owner's feed since the last delivery, to the edge sync's function module,
 * in order, as the rule delivers them (the sync reads only the name; the rest of the envelope is the feed's).
 */
function bus(owner: string, sync: ReturnType<typeof createSync>) {
  let position: FeedPosition = { epoch: undefined, id: 0, since: 0 };
  return async () => {
    const page = await listEvents(db, owner, { after: position, perPage: 100, types: [] });
    position = page.next;
    const outcomes = [];
    for (const event of page.events.filter((each) => each.kind === 'domain')) {
      const record = 'record' in event.payload ? event.payload.record : {};
      const detail = {
        id: String(event.id),
        type: event.type,
        owner,
        data: { name: (record as { name: string }).name },
      };
      outcomes.push(await sync({ 'detail-type': 'Change', detail } as unknown as SyncEvent));
    }
    return outcomes;
  };
}

const calls = (operation: string) => stage.cloudFront.calls.filter((call) => call.operation === operation);
/** Lookups of what is not there yet (a host's tenant, its key): how the code asks, not a failure. */
const LOOKUPS = ['GetDistributionTenantByDomain EntityNotFound', 'GetKey ResourceNotFoundException'];
/** CloudFront calls that failed (a refused create, a conflict, a throttle…). */
const failedCalls = () =>
  stage.cloudFront.calls.filter(
    (call) => call.status >= 400 && !LOOKUPS.includes(`${call.operation} ${call.errorCode}`),
  );

describe('a domain at the edge, from store to sweep', () => {
  let client: Client;
  beforeAll(async () => {
    client = await newClient(gateway);
  });

  it('waits for DNS without a tenant, provisions once the CNAME is seen, serves once certified, and is swept after its delete', async () => {
    // Prepare
    const name = `life-${randomUUID().slice(0, 8)}.example.com`;
    const sync = createSync(config, db, stage.edge);
    const deliver = bus(client.owner, sync);
    // The re-check as the function asks: the stage's resolver, the edge host name (the group's routing endpoint).
    const lookupRecords = recordsLookup(createDnsResolver({ servers: [dns.address] }), 'edge.test');
    const recheck = (afterMs: number) => runDueChecks({ db, lookupRecords, now: () => new Date(Date.now() + afterMs) });
    const show = async () => (await client.get(`${DOMAINS}/${id}`)).body.data;

    // Act 1: stored, then verified by its TXT record alone.
    const stored = await client.post(DOMAINS, { name, index_page: 'https://www.example.org/one' });
    const id = stored.body.data.id as number;
    publish(dns, stored.body.data);
    const verified = await client.request('POST', `${DOMAINS}/${id}/verify`);
    await deliver();
    const waiting = await show();
    const beforeCname = await visit(name);
    // Assess 1: waiting for DNS; no tenant, and no CloudFront call was refused.
    expect(stored.body.data.serving).toBe('pending');
    expect(verified.body.data).toMatchObject({ status: 'active', serving: 'waiting_for_dns' });
    expect(waiting).toMatchObject({ serving: 'waiting_for_dns', serving_error: null });
    expect(calls('CreateDistributionTenant')).toEqual([]);
    expect(failedCalls()).toEqual([]);
    expect(beforeCname.status).toBe(403);

    // Act 2: the CNAME is published; the next re-check (within 5 minutes) sees it and tells the bus.
    dns.setCname(name, 'edge.test');
    const quiet = await recheck(0);
    const run = await recheck(FAST_RECHECK_INTERVAL_MS + 1_000);
    await deliver();
    const provisioning = await show();
    const tenant = stage.cloudFront.calls.find((call) => call.operation === 'CreateDistributionTenant');
    const whileProvisioning = await visit(name);
    // Assess 2: a tenant in the stage's group and distribution, its certificate pending.
    expect(quiet.checked).toBe(0); // not due yet
    expect(run.changed).toBeGreaterThanOrEqual(1);
    expect(provisioning).toMatchObject({
      serving: 'provisioning',
      records: [{ status: 'found' }, { status: 'found' }],
    });
    expect(tenant).toMatchObject({ status: 201 });
    expect(stage.cloudFront.servingTenant(name)).toBeNull(); // not deployed, no certificate yet
    expect(whileProvisioning.status).toBe(403);

    // Act 3: CloudFront issues the certificate and deploys the tenant; the next re-check makes the sync look.
    stage.cloudFront.issueCertificate(name);
    stage.cloudFront.deployPending();
    await recheck(2 * FAST_RECHECK_INTERVAL_MS + 1_000);
    await deliver();
    const active = await show();
    const served = await visit(name);
    // Assess 3
    expect(active).toMatchObject({ serving: 'active', serving_error: null });
    expect(stage.cloudFront.servingTenant(name)).toMatchObject({
      distributionId: stage.distributionId,
      connectionGroupId: config.edgeConnectionGroupId,
      name: `domains-spaces-test-${name}`,
    });
    expect(served).toEqual({ status: 302, location: 'https://www.example.org/one' });

    // Act 4: a page update, served.
    await client.patch(`${DOMAINS}/${id}`, { index_page: 'https://www.example.org/two' });
    await deliver();
    const moved = await visit(name);
    // Assess 4
    expect(moved).toEqual({ status: 302, location: 'https://www.example.org/two' });

    // Act 5: deleted: the tenant is disabled, then swept with its tombstone once older than any sync.
    await client.delete(`${DOMAINS}/${id}`);
    await deliver();
    const disabled = await visit(name);
    stage.cloudFront.deployPending();
    const soon = await sweepEdge({ shards: [shardOf(stage.edge)] });
    const swept = await sweepEdge({ shards: [shardOf(stage.edge)], now: () => Date.now() + TOMBSTONE_TTL_MS + 60_000 });
    // Assess 5
    expect(disabled.status).toBe(403);
    expect(calls('UpdateDistributionTenant').at(-1)).toMatchObject({ status: 200 });
    expect(soon).toMatchObject({ swept: 0 });
    expect(swept).toMatchObject({ swept: 1, kept: 0 });
    expect(calls('DeleteDistributionTenant')).toMatchObject([{ status: 204 }]);
    expect(stage.cloudFront.kvsValue(stage.kvsArn, name)).toBeNull();
    expect(failedCalls()).toEqual([]);
  });

  it('reports a host another stage serves as `failed` (name_in_use) and never touches that stage’s tenant', async () => {
    // Prepare: the dev stage of the same account serves the name from its own distribution and group.
    const name = `taken-${randomUUID().slice(0, 8)}.example.com`;
    const otherDistribution = stage.cloudFront.createDistribution();
    const otherGroup = stage.cloudFront.createConnectionGroup({ name: 'domains-spaces-dev-edge' });
    const other = stage.cloudFront.seedTenant({
      distributionId: otherDistribution.id,
      connectionGroupId: otherGroup.id,
      domains: [name],
      name: `domains-spaces-dev-${name}`,
    });
    const sync = createSync(config, db, stage.edge);
    const deliver = bus(client.owner, sync);
    const stored = await client.post(DOMAINS, { name });
    const id = stored.body.data.id as number;
    publish(dns, stored.body.data);
    dns.setCname(name, 'edge.test');
    const touching = () => stage.cloudFront.calls.filter((call) => call.input.Identifier === other.id);
    // Act: verified, synced; then deleted, synced and swept.
    await client.request('POST', `${DOMAINS}/${id}/verify`);
    await deliver();
    const shown = (await client.get(`${DOMAINS}/${id}`)).body.data;
    await client.delete(`${DOMAINS}/${id}`);
    await deliver();
    await sweepEdge({ shards: [shardOf(stage.edge)], now: () => Date.now() + TOMBSTONE_TTL_MS + 60_000 });
    // Assess
    expect(shown).toMatchObject({
      serving: 'failed',
      serving_error: { code: 'name_in_use', message: expect.stringContaining('Another CloudFront') },
    });
    expect(touching()).toEqual([]);
    expect(stage.cloudFront.servingTenant(name)).toMatchObject({ id: other.id, distributionId: otherDistribution.id });
  });
});
