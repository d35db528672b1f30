/**
 * The edge's AWS side (lib/edge/cloudfront.ts: the store and tenant adapters the sync and the sweep call) against
 * the local CloudFront, through the same SDK clients it builds on AWS: a tenant is created only once its host's
 * DNS points at the stage's routing endpoint, in the stage's connection group and distribution; what each call
 * asks of CloudFront is accepted by CloudFront's rules; another stage's tenant is never touched.
 */
import {
  EntityNotFound,
  GetDistributionTenantByDomainCommand,
  UpdateDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';
import { describe, expect, it } from 'vitest';
import { controlPlaneRetries } from '#functions/edge/sync.ts';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { routeLookup } from '#lib/domains/lookups.ts';
import { cloudFrontStore, cloudFrontTenants, type StageEdge } from '#lib/edge/cloudfront.ts';
import { StoreChanged, StoreFull } from '#lib/edge/ports.ts';
import type { EdgeEntry } from '#lib/edge/rules/entry.ts';
import type { CloudFrontHarness } from '#test/support/cloudfront-harness.ts';
import type { DnsTestServer } from '#test/support/dns-server.ts';
import { failure, harness, uniqueHost } from './cloudfront-support.ts';

/** The stage's tenants, its DNS check asking the test DNS server whether a host points at its routing endpoint. */
function stageTenants(cf: CloudFrontHarness & { dns: DnsTestServer }, overrides: Partial<StageEdge> = {}) {
  const route = routeLookup(
    createDnsResolver({ servers: [cf.dns.address], timeoutMs: 500, tries: 1 }),
    cf.connectionGroup.routingEndpoint,
  );
  return cloudFrontTenants(cf.clients.cloudFront, {
    distributionIds: [cf.distribution.id],
    connectionGroupId: cf.connectionGroup.id,
    tenantPrefix: 'domains-spaces-test',
    pointsAtEdge: async (host) => (await route(host))?.status === 'found',
    ...overrides,
  });
}

const failedCalls = (cf: CloudFrontHarness) =>
  cf.cloudFront.calls.filter((call) => call.status >= 400).map((call) => `${call.operation} ${call.errorCode}`);

describe('cloudFrontTenants', () => {
  it('waits for DNS without calling CreateDistributionTenant, then creates the tenant in the stage’s group once the CNAME is there', async () => {
    // Prepare
    const cf = await harness();
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    // Act
    const before = await tenants.ensure(host);
    cf.pointAt(host);
    const created = await tenants.ensure(host);
    const found = await cf.clients.cloudFront.send(new GetDistributionTenantByDomainCommand({ Domain: host }));
    // Assess
    expect(before).toEqual({ state: 'waiting_for_dns' });
    expect(created).toEqual({ state: 'provisioning' });
    expect(found.DistributionTenant).toMatchObject({
      DistributionId: cf.distribution.id,
      ConnectionGroupId: cf.connectionGroup.id,
      Name: `domains-spaces-test-${host}`,
      Enabled: true,
      Tags: { Items: [{ Key: 'stack', Value: 'domains-spaces-test' }] },
    });
    expect(cf.cloudFront.calls.filter((call) => call.operation === 'CreateDistributionTenant')).toHaveLength(1);
    expect(failedCalls(cf)).toEqual([
      'GetDistributionTenantByDomain EntityNotFound', // the first look: no tenant yet
      'GetDistributionTenantByDomain EntityNotFound', // the second, before it creates one
    ]);
  });

  it('is provisioning until deployed and certified, active then; disables on remove, and purges once deployed', async () => {
    // Prepare
    const cf = await harness();
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    cf.pointAt(host);
    await tenants.ensure(host);
    // Act
    cf.cloudFront.deployPending();
    const deployedOnly = await tenants.ensure(host);
    cf.cloudFront.issueCertificate(host);
    cf.cloudFront.deployPending();
    const active = await tenants.ensure(host);
    const served = cf.cloudFront.servingTenant(host);
    await tenants.remove(host);
    const servedAfterRemove = cf.cloudFront.servingTenant(host);
    const purgedWhileDeploying = await tenants.purge(host);
    cf.cloudFront.deployPending();
    const purged = await tenants.purge(host);
    const gone = await failure(cf.clients.cloudFront.send(new GetDistributionTenantByDomainCommand({ Domain: host })));
    // Assess
    expect(deployedOnly).toEqual({ state: 'provisioning' });
    expect(active).toEqual({ state: 'active' });
    expect(served).toMatchObject({ distributionId: cf.distribution.id, connectionGroupId: cf.connectionGroup.id });
    expect(servedAfterRemove).toBeNull();
    // Its certificate, kept through the disable (the update sends Customizations back), named for the sweep to delete.
    expect([purgedWhileDeploying, purged]).toEqual([
      false,
      { certificateArn: expect.stringContaining(':certificate/') },
    ]);
    expect(gone).toBeInstanceOf(EntityNotFound);
  });

  it('creates an apex’s tenant once its addresses are all the routing endpoint’s (an ALIAS flattened)', async () => {
    // Prepare
    const cf = await harness();
    const tenants = stageTenants(cf);
    const apex = `apex-${uniqueHost()}`;
    const [first] = cf.addressesOf(cf.connectionGroup.routingEndpoint);
    // Act
    cf.dns.setAddresses(apex, [first ?? '', '198.51.100.7']);
    const partly = await tenants.ensure(apex);
    cf.pointApexAt(apex);
    const created = await tenants.ensure(apex);
    // Assess
    expect(partly).toEqual({ state: 'waiting_for_dns' });
    expect(created).toEqual({ state: 'provisioning' });
    expect(failedCalls(cf).filter((call) => call.startsWith('Create'))).toEqual([]);
  });

  it('reports a failed certificate, and asks for a new one once the name points at the edge again', async () => {
    // Prepare
    const cf = await harness();
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    cf.pointAt(host);
    await tenants.ensure(host);
    cf.cloudFront.failCertificate(host, 'validation-timed-out');
    cf.pointAt(host, 'elsewhere.example.net');
    // Act
    const failed = await tenants.ensure(host);
    cf.pointAt(host);
    const retried = await tenants.ensure(host);
    // Assess
    expect(failed).toEqual({ state: 'failed', failure: 'certificate_failed' });
    expect(retried).toEqual({ state: 'provisioning' });
    expect(cf.cloudFront.calls.filter((call) => call.operation === 'UpdateDistributionTenant')).toMatchObject([
      { status: 200 },
    ]);
  });

  it('never touches another stage’s tenant for the same host: the name is in use, and remove and purge leave it', async () => {
    // Prepare: another stage's distribution (in its own connection group) serves the host.
    const cf = await harness();
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    const otherStage = cf.cloudFront.createDistribution();
    const otherGroup = cf.cloudFront.createConnectionGroup({ name: 'other-edge' });
    const other = cf.cloudFront.seedTenant({
      distributionId: otherStage.id,
      connectionGroupId: otherGroup.id,
      domains: [host],
    });
    cf.pointAt(host);
    // Act
    const serving = await tenants.ensure(host);
    await tenants.remove(host);
    const purged = await tenants.purge(host);
    // Assess
    expect(serving).toEqual({ state: 'failed', failure: 'name_in_use' });
    expect(purged).toBe(true); // nothing of this stage's is left for the host: its tombstone may go
    const writes = cf.cloudFront.calls.filter((call) => !call.operation.startsWith('Get'));
    expect(writes).toEqual([]);
    expect(cf.cloudFront.servingTenant(host)?.id).toBe(other.id);
  });

  it('takes a tenant of its own distribution in another connection group for another stage’s too', async () => {
    // Prepare: the same distribution, the default connection group: not made by this stage's sync.
    const cf = await harness();
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    cf.cloudFront.seedTenant({ distributionId: cf.distribution.id, domains: [host] });
    // Act
    const serving = await tenants.ensure(host);
    await tenants.remove(host);
    // Assess
    expect(serving).toEqual({ state: 'failed', failure: 'name_in_use' });
    expect(cf.cloudFront.calls.filter((call) => call.operation === 'UpdateDistributionTenant')).toEqual([]);
  });

  it('reports a name held by another distribution’s alias (CNAMEAlreadyExists) as in use, without throwing', async () => {
    // Prepare
    const cf = await harness();
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    cf.cloudFront.createDistribution({ connectionMode: 'direct', aliases: [host] });
    cf.pointAt(host);
    // Act
    const serving = await tenants.ensure(host);
    // Assess
    expect(serving).toEqual({ state: 'failed', failure: 'name_in_use' });
    expect(failedCalls(cf)).toContain('CreateDistributionTenant CNAMEAlreadyExists');
  });

  it('waits for DNS when CloudFront does not see the record yet, though the stage’s resolver does', async () => {
    // Prepare: our check says yes; CloudFront's (the harness's DNS) finds nothing.
    const cf = await harness();
    const tenants = stageTenants(cf, { pointsAtEdge: async () => true });
    const host = uniqueHost();
    // Act
    const serving = await tenants.ensure(host);
    // Assess
    expect(serving).toEqual({ state: 'waiting_for_dns' });
    expect(failedCalls(cf)).toContain('CreateDistributionTenant InvalidArgument');
  });

  it('rides out CloudFront’s throttling with the retries the sync function configures', async () => {
    // Prepare
    const cf = await harness({
      maxAttempts: controlPlaneRetries.maxAttempts,
      retryMode: controlPlaneRetries.retryMode,
    });
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    cf.pointAt(host);
    cf.cloudFront.throttleNext('CreateDistributionTenant', 2);
    // Act
    const serving = await tenants.ensure(host);
    // Assess
    expect(serving).toEqual({ state: 'provisioning' });
    expect(failedCalls(cf).filter((call) => call.endsWith('Throttling'))).toHaveLength(2);
  });
});

describe('tenants at their limits, and updated as the API defines the update', () => {
  it('re-enables a disabled tenant with its certificate kept: the update sends the tenant as read', async () => {
    // Prepare: a served tenant (its certificate issued, so in its Customizations), then disabled by the sync
    const cf = await harness();
    const tenants = stageTenants(cf);
    const host = uniqueHost();
    cf.pointAt(host);
    await tenants.ensure(host);
    cf.cloudFront.issueCertificate(host);
    cf.cloudFront.deployPending();
    await tenants.remove(host);
    cf.cloudFront.deployPending();
    // Act
    await tenants.ensure(host);
    cf.cloudFront.deployPending();
    const served = await tenants.ensure(host);
    // Assess: the same certificate, issued, and the tenant serving
    expect(served).toEqual({ state: 'active' });
    expect(cf.cloudFront.servingTenant(host)).not.toBeNull();
    const updates = cf.cloudFront.calls.filter((call) => call.operation === 'UpdateDistributionTenant');
    expect(updates.map((call) => call.input)).toEqual([
      expect.objectContaining({ Enabled: false, ConnectionGroupId: cf.connectionGroup.id, Domains: [host] }),
      expect.objectContaining({ Enabled: true, ConnectionGroupId: cf.connectionGroup.id, Domains: [host] }),
    ]);
  });

  it('shows what the harness does with an update that leaves Customizations out: the certificate is gone', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);
    await stageTenants(cf).ensure(host);
    cf.cloudFront.issueCertificate(host);
    cf.cloudFront.deployPending();
    const { DistributionTenant: tenant, ETag } = await cf.clients.cloudFront.send(
      new GetDistributionTenantByDomainCommand({ Domain: host }),
    );
    // Act: the update the sync sent before (domains, distribution, group, Enabled; no Customizations)
    await cf.clients.cloudFront.send(
      new UpdateDistributionTenantCommand({
        Id: tenant?.Id,
        DistributionId: tenant?.DistributionId,
        ConnectionGroupId: tenant?.ConnectionGroupId,
        Domains: [{ Domain: host }],
        Enabled: true,
        IfMatch: ETag,
      }),
    );
    cf.cloudFront.deployPending();
    // Assess
    expect(tenant?.Customizations?.Certificate?.Arn).toMatch(/^arn:aws:acm:/);
    expect(cf.cloudFront.servingTenant(host)).toBeNull();
    expect(await stageTenants(cf).ensure(host)).toEqual({ state: 'provisioning' });
  });

  it('takes a tenant another sync just created for the host (EntityAlreadyExists) instead of failing', async () => {
    // Prepare: the check for an existing tenant says none; another sync creates it before this one's create
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);
    const other = stageTenants(cf);
    const racing = stageTenants(cf, {
      pointsAtEdge: async () => {
        await other.ensure(host);
        return true;
      },
    });
    // Act
    const serving = await racing.ensure(host);
    // Assess
    expect(serving).toEqual({ state: 'provisioning' });
    expect(failedCalls(cf)).toContain('CreateDistributionTenant EntityAlreadyExists');
  });

  it('records capacity when the account has no room for a tenant or a certificate (EntityLimitExceeded)', async () => {
    // Prepare: room for one tenant, then for one certificate
    const full = await harness(undefined, { quotas: { tenants: 1 } });
    const noCertificates = await harness(undefined, { quotas: { certificates: 0 } });
    const [first, second, third] = [uniqueHost(), uniqueHost(), uniqueHost()];
    full.pointAt(first);
    full.pointAt(second);
    noCertificates.pointAt(third);
    // Act
    const served = await stageTenants(full).ensure(first);
    const refused = await stageTenants(full).ensure(second);
    const noCertificate = await stageTenants(noCertificates).ensure(third);
    // Assess
    expect(served).toEqual({ state: 'provisioning' });
    expect([refused, noCertificate]).toEqual([
      { state: 'failed', failure: 'capacity' },
      { state: 'failed', failure: 'capacity' },
    ]);
    expect(failedCalls(full)).toContain('CreateDistributionTenant EntityLimitExceeded');
  });

  it('creates a tenant on the distribution of the host’s shard', async () => {
    // Prepare
    const cf = await harness(undefined, { shards: 2 });
    const tenants = stageTenants(cf, { distributionIds: cf.shards.map((shard) => shard.distribution.id) });
    const host = uniqueHost();
    cf.pointAt(host);
    // Act
    await tenants.ensure(host, 1);
    // Assess
    const { DistributionTenant: tenant } = await cf.clients.cloudFront.send(
      new GetDistributionTenantByDomainCommand({ Domain: host }),
    );
    expect(tenant).toMatchObject({
      DistributionId: cf.shards[1]?.distribution.id,
      ConnectionGroupId: cf.connectionGroup.id,
    });
  });
});

describe('cloudFrontStore', () => {
  it('puts many keys in one UpdateKeys, and turns a full store into StoreFull', async () => {
    // Prepare: a store of 200 bytes
    const cf = await harness(undefined, { quotas: { storeBytes: 200 } });
    const store = cloudFrontStore(cf.clients.keyValueStore, cf.store.arn);
    const entry: EdgeEntry = { s: 'active', i: '', n: '', t: 1 };
    // Act
    await store.putAll(
      [
        { key: 'a.example', value: entry },
        { key: 'b.example', value: entry },
      ],
      await store.version(),
    );
    const full = await failure(
      store.putAll(
        [{ key: 'c.example', value: { ...entry, i: 'https://www.example.com/'.repeat(5) } }],
        await store.version(),
      ),
    );
    // Assess
    expect(await store.get('b.example')).toEqual(entry);
    expect(full).toBeInstanceOf(StoreFull);
    expect(
      cf.cloudFront.calls.filter((call) => call.operation === 'UpdateKeys').map((call) => call.input.Puts),
    ).toEqual([['a.example', 'b.example'], ['c.example']]);
  });

  it('reads with the store ETag, puts on it, and turns a conflict into StoreChanged', async () => {
    // Prepare
    const cf = await harness();
    const store = cloudFrontStore(cf.clients.keyValueStore, cf.store.arn);
    const entry: EdgeEntry = { s: 'active', i: 'https://www.example.org/', n: '', t: 1 };
    // Act
    const empty = await store.read('shop.example.com');
    await store.put('shop.example.com', entry, empty.etag);
    const stale = await failure(store.put('shop.example.com', entry, empty.etag));
    const written = await store.read('shop.example.com');
    const keys = [];
    for await (const entry of store.keys()) keys.push(entry);
    // Assess
    expect(empty.value).toBeNull();
    expect(stale).toBeInstanceOf(StoreChanged);
    expect(written.value).toEqual(entry);
    expect(keys).toEqual([{ key: 'shop.example.com', value: JSON.stringify(entry) }]);
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'shop.example.com')).toBe(JSON.stringify(entry));
  });
});
