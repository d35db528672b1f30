/**
 * The edge sync function (functions/edge/sync.ts) as Lambda runs it, against DynamoDB Local and the local
 * CloudFront with CloudFront's rules (test/support/cloudfront-harness.ts), through the SDK clients and the edge
 * it builds from its settings (`cloudFrontEdge`): a domain event brings the host's entry and tenant in line
 * with the domain as it is now (whatever the event says), records `serving` on the domain, and a repeat changes
 * nothing; a domain whose DNS does not point at the edge yet waits without a tenant; pages the store would
 * refuse are never sent; an event that names no domain fails (the rule retries, then dead-letters it). The
 * sweep of what a deleted domain leaves is its own function (edge-sweep-function.test.ts).
 */
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudFrontEdge, create, type SyncEvent } from '#functions/edge/sync.ts';
import { itemKey } from '#lib/data/keys.ts';
import { destroyDomain, showDomain, storeDomain, verifyDomain } from '#lib/domains/data/domains.ts';
import type { LookupRecords } from '#lib/domains/rules/dns-records.ts';
import { servingOf } from '#lib/edge/rules/serving.ts';
import type { EdgeConfig } from '#lib/edge/settings.ts';
import { type CloudFrontHarness, cloudFrontHarness } from '#test/support/cloudfront-harness.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns } from '#test/support/domains.ts';

let dns: DnsTestServer;
let cf: CloudFrontHarness;
let config: EdgeConfig;

beforeAll(async () => {
  dns = await startDnsServer();
  cf = await cloudFrontHarness({ dns });
  // The sync's settings as the stack sets them: the stage's store, distribution and group; its edge host name.
  config = {
    ...configWithDns(dns),
    edgeHostname: cf.connectionGroup.routingEndpoint,
    edgeKvsArn: cf.store.arn,
    edgeDistributionId: cf.distribution.id,
    edgeConnectionGroupId: cf.connectionGroup.id,
    edgeTenantPrefix: 'domains-spaces-test',
  };
});
afterAll(async () => {
  await cf?.close();
  await dns?.close();
});

/** The function as Lambda builds it from its settings, over the harness's clients; `now` shifts its clock. */
const syncFunction = (now?: () => number) => {
  const edge = cloudFrontEdge(config, cf.clients);
  return create(config, db, now ? { ...edge, now } : edge);
};

/** A domain event as the rule delivers it; only the name matters to the sync (it reads the rest itself). */
const eventFor = (owner: string, name: string, type = 'domain.updated'): SyncEvent =>
  ({ 'detail-type': type, detail: { id: '000000000001', type, owner, data: { name } } }) as unknown as SyncEvent;

/** Verifies a new domain of a new owner, its TXT record found; its CNAME to the edge too unless told. */
async function activeDomain({ pointed = true, indexPage = 'https://a.example/' } = {}) {
  const owner = `owner-${randomUUID()}`;
  const name = `sync-${randomUUID().slice(0, 8)}.example`;
  const stored = (await storeDomain(db, owner, { name, indexPage, notFoundPage: null })).result;
  const found: LookupRecords = async () => ({ txt: { kind: 'found', values: [stored.verificationToken ?? ''] } });
  await verifyDomain(db, found, owner, stored.id);
  if (pointed) cf.pointAt(name);
  return { owner, name, id: stored.id };
}

const callsFor = (name: string) =>
  cf.cloudFront.calls.filter((call) => call.input.Domain === name || call.input.Key === name);

describe('the edge sync function', () => {
  it('serves an active domain, creates its tenant and records its serving state; a repeat changes nothing', async () => {
    // Prepare
    const { owner, name, id } = await activeDomain();
    const sync = syncFunction();
    // Act
    const first = await sync(eventFor(owner, name, 'domain.verified'));
    const version = (await showDomain(db, owner, id)).version;
    const repeat = await sync(eventFor(owner, name, 'domain.verified'));
    // Assess
    expect([first, repeat]).toEqual(['written', 'unchanged']);
    expect(JSON.parse(cf.cloudFront.kvsValue(cf.store.arn, name) ?? '')).toMatchObject({
      s: 'active',
      i: 'https://a.example/',
      n: '',
    });
    const shown = await showDomain(db, owner, id);
    expect(shown.serving).toBe('provisioning');
    expect(shown.version).toBe(version); // the repeat found the state recorded already
    expect(cf.cloudFront.calls.filter((call) => call.operation === 'CreateDistributionTenant')).toHaveLength(1);
  });

  it('waits for DNS: no tenant and no CreateDistributionTenant call while the name does not point at the edge', async () => {
    // Prepare
    const { owner, name, id } = await activeDomain({ pointed: false });
    // Act
    await syncFunction()(eventFor(owner, name, 'domain.verified'));
    // Assess
    expect(servingOf(await showDomain(db, owner, id)).state).toBe('waiting_for_dns');
    expect(callsFor(name).map((call) => call.operation)).not.toContain('CreateDistributionTenant');
    expect(
      callsFor(name).filter(
        (call) =>
          call.status >= 400 && call.operation !== 'GetKey' && call.operation !== 'GetDistributionTenantByDomain',
      ),
    ).toEqual([]);
  });

  it('never sends an entry over the store’s 1 KB: the domain is `failed` (pages_too_large), and the event succeeds', async () => {
    // Prepare: pages the API would refuse now, written as an older version stored them.
    const { owner, name, id } = await activeDomain();
    const long = `https://pages.example.org/${'é'.repeat(229)}`;
    await db.client.send(
      new UpdateCommand({
        TableName: db.tableName,
        Key: itemKey(owner, 'domain', id),
        UpdateExpression: 'SET indexPage = :page, notFoundPage = :page',
        ExpressionAttributeValues: { ':page': long },
      }),
    );
    // Act
    const outcome = await syncFunction()(eventFor(owner, name));
    // Assess
    expect(outcome).toBe('unfit');
    expect(await showDomain(db, owner, id)).toMatchObject({ serving: 'failed', servingFailure: 'pages_too_large' });
    expect(callsFor(name).filter((call) => call.operation === 'PutKey')).toEqual([]);
  });

  it('follows the domain as it is now, not the event: a late event of a deleted domain leaves a tombstone', async () => {
    // Prepare
    const { owner, name, id } = await activeDomain();
    const sync = syncFunction();
    await sync(eventFor(owner, name, 'domain.verified'));
    await destroyDomain(db, owner, id);
    // Act: the verified event again (late), then the deleted one
    await sync(eventFor(owner, name, 'domain.verified'));
    await sync(eventFor(owner, name, 'domain.deleted'));
    // Assess: a tombstone, and the tenant disabled (once: the second finds it disabled already)
    expect(JSON.parse(cf.cloudFront.kvsValue(cf.store.arn, name) ?? '')).toMatchObject({ s: 'none' });
    const updates = cf.cloudFront.calls.filter((call) => call.operation === 'UpdateDistributionTenant');
    expect(updates.at(-1)).toMatchObject({ status: 200 });
    expect(cf.cloudFront.servingTenant(name)).toBeNull();
  });

  it('fails an event that names no domain, for the rule to retry and dead-letter', async () => {
    // Prepare
    const nameless = { detail: { id: '000000000009', type: 'domain.updated', owner: 'acme', data: {} } };
    // Act / Assess
    await expect(syncFunction()(nameless as unknown as SyncEvent)).rejects.toThrow(/names no domain/);
  });
});
