/**
 * The edge's AWS side (lib/edge/cloudfront.ts: the store and tenant adapters the sync and the sweep call) against
 * the local CloudFront, through the same SDK clients it builds on AWS: what each adapter call asks of CloudFront,
 * and that CloudFront's rules accept it.
 */
import { EntityNotFound, GetDistributionTenantByDomainCommand } from '@aws-sdk/client-cloudfront';
import { describe, expect, it } from 'vitest';
import { cloudFrontStore, cloudFrontTenants } from '#lib/edge/cloudfront.ts';
import type { EdgeRecord } from '#lib/edge/record.ts';
import { StoreChanged } from '#lib/edge/sync.ts';
import { failure, harness, uniqueHost } from './cloudfront-support.ts';

describe('cloudFrontTenants', () => {
  it('creates a pending tenant, reports it active once deployed and certified, then disables and purges it', async () => {
    // Prepare
    const cf = await harness();
    const tenants = cloudFrontTenants(cf.clients.cloudFront, cf.distribution.id);
    const host = uniqueHost();
    cf.pointAt(host, cf.cloudFront.defaultConnectionGroup.routingEndpoint);

    // Act
    const created = await tenants.ensure(host);
    const stillPending = await tenants.ensure(host);
    cf.cloudFront.deployPending();
    cf.cloudFront.issueCertificate(host);
    const active = await tenants.ensure(host);
    await tenants.remove(host);
    const servedAfterRemove = cf.cloudFront.servingTenant(host);
    const purgedWhileDeploying = await tenants.purge(host);
    cf.cloudFront.deployPending();
    const purged = await tenants.purge(host);
    const gone = await failure(cf.clients.cloudFront.send(new GetDistributionTenantByDomainCommand({ Domain: host })));

    // Assess
    expect([created, stillPending, active]).toEqual(['pending', 'pending', 'active']);
    expect(servedAfterRemove).toBeNull();
    expect([purgedWhileDeploying, purged]).toEqual([false, true]);
    expect(gone).toBeInstanceOf(EntityNotFound);
    expect(cf.cloudFront.calls.filter((call) => call.status >= 400).map((call) => call.errorCode)).toEqual([
      'EntityNotFound', // the first ensure's lookup, before it creates the tenant
      'EntityNotFound', // the check after the purge
    ]);
  });

  it('reports a tenant whose certificate failed as failed', async () => {
    // Prepare
    const cf = await harness();
    const tenants = cloudFrontTenants(cf.clients.cloudFront, cf.distribution.id);
    const host = uniqueHost();
    cf.pointAt(host, cf.cloudFront.defaultConnectionGroup.routingEndpoint);
    await tenants.ensure(host);

    // Act
    cf.cloudFront.failCertificate(host, 'validation-timed-out');
    const serving = await tenants.ensure(host);

    // Assess
    expect(serving).toBe('failed');
  });

  it('cannot create the tenant of a host whose DNS does not point at the default connection group yet', async () => {
    // Prepare: the adapter creates tenants without a ConnectionGroupId, so in the account's default group.
    const cf = await harness();
    const tenants = cloudFrontTenants(cf.clients.cloudFront, cf.distribution.id);
    const host = uniqueHost();
    cf.pointAt(host);

    // Act
    const error = await failure(tenants.ensure(host));

    // Assess
    expect(error.name).toBe('InvalidArgument');
    expect(error.$metadata.httpStatusCode).toBe(400);
  });

  // Known gap of lib/edge/cloudfront.ts, shown here for its fix: GetDistributionTenantByDomain searches the whole
  // account, so a host another stage's distribution serves is taken for this stage's tenant (its state is
  // reported, and `remove` disables it). Flip to `it` once the adapter only acts on its own distribution's tenants.
  it.fails("leaves another stage's tenant for the same host alone", async () => {
    // Prepare
    const cf = await harness();
    const tenants = cloudFrontTenants(cf.clients.cloudFront, cf.distribution.id);
    const host = uniqueHost();
    const otherStage = cf.cloudFront.createDistribution();
    const other = cf.cloudFront.seedTenant({ distributionId: otherStage.id, domains: [host] });

    // Act
    await tenants.remove(host);

    // Assess
    expect(cf.cloudFront.calls.filter((call) => call.input.Identifier === other.id)).toEqual([]);
    expect(cf.cloudFront.servingTenant(host)?.id).toBe(other.id);
  });
});

describe('cloudFrontStore', () => {
  it('reads with the store ETag, puts on it, and turns a conflict into StoreChanged', async () => {
    // Prepare
    const cf = await harness();
    const store = cloudFrontStore(cf.clients.keyValueStore, cf.store.arn);
    const record: EdgeRecord = { s: 'active', i: 'https://www.example.org/', n: '', t: 1 };

    // Act
    const empty = await store.read('shop.example.com');
    await store.put('shop.example.com', record, empty.etag);
    const stale = await failure(store.put('shop.example.com', record, empty.etag));
    const written = await store.read('shop.example.com');
    const keys = [];
    for await (const entry of store.keys()) keys.push(entry);

    // Assess
    expect(empty.value).toBeNull();
    expect(stale).toBeInstanceOf(StoreChanged);
    expect(written.value).toEqual(record);
    expect(keys).toEqual([{ key: 'shop.example.com', value: JSON.stringify(record) }]);
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'shop.example.com')).toBe(JSON.stringify(record));
  });
});
