/**
 * Changing and deleting distribution tenants through the real `@aws-sdk/client-cloudfront`: the If-Match rules,
 * disabling before deleting, listing, and what every control-plane call must carry or may meet (a SigV4
 * signature scoped to us-east-1/cloudfront, CloudFront's throttling).
 */
import {
  CloudFrontClient,
  CloudFrontServiceException,
  CNAMEAlreadyExists,
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  EntityNotFound,
  GetConnectionGroupCommand,
  GetDistributionTenantCommand,
  InvalidIfMatchVersion,
  ListDistributionTenantsCommand,
  PreconditionFailed,
  ResourceNotDisabled,
  UpdateDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';
import { describe, expect, it, onTestFinished } from 'vitest';
import { TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { failure, harness, uniqueHost } from './cloudfront-support.ts';

type Harness = Awaited<ReturnType<typeof harness>>;

/** A tenant for a fresh host whose DNS points at the stage's connection group: its ID and ETag. */
async function createTenant(cf: Harness, host = uniqueHost()) {
  cf.pointAt(host);
  const created = await cf.clients.cloudFront.send(
    new CreateDistributionTenantCommand({
      DistributionId: cf.distribution.id,
      ConnectionGroupId: cf.connectionGroup.id,
      Name: host,
      Domains: [{ Domain: host }],
      ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: host },
    }),
  );
  return { id: created.DistributionTenant?.Id ?? '', etag: created.ETag ?? '', host };
}

/**
 * An update as the API defines it: the tenant's whole configuration as read (domains, connection group,
 * customizations, parameters), with the changes given.
 */
async function update(cf: Harness, id: string, changes: { IfMatch?: string; Enabled?: boolean; Domains?: string[] }) {
  const { DistributionTenant: read } = await cf.clients.cloudFront.send(
    new GetDistributionTenantCommand({ Identifier: id }),
  );
  return cf.clients.cloudFront.send(
    new UpdateDistributionTenantCommand({
      Id: id,
      DistributionId: cf.distribution.id,
      ConnectionGroupId: read?.ConnectionGroupId,
      Customizations: read?.Customizations,
      Parameters: read?.Parameters,
      IfMatch: changes.IfMatch,
      Enabled: changes.Enabled,
      Domains: (changes.Domains ?? read?.Domains?.map((domain) => domain.Domain ?? '') ?? []).map((Domain) => ({
        Domain,
      })),
    }),
  );
}

describe('UpdateDistributionTenant', () => {
  it('applies a change made with the current ETag: a new ETag, InProgress again until deployed', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);
    cf.cloudFront.deployPending();

    // Act
    const updated = await update(cf, tenant.id, { IfMatch: tenant.etag, Enabled: false });
    cf.cloudFront.deployPending();
    const read = await cf.clients.cloudFront.send(new GetDistributionTenantCommand({ Identifier: tenant.id }));

    // Assess
    expect(updated.DistributionTenant).toMatchObject({ Enabled: false, Status: 'InProgress' });
    expect(updated.ETag).not.toBe(tenant.etag);
    expect(read.DistributionTenant).toMatchObject({ Enabled: false, Status: 'Deployed' });
    expect(read.ETag).toBe(updated.ETag);
  });

  it('refuses a change without If-Match (InvalidIfMatchVersion, 400)', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);

    // Act
    const error = await failure(update(cf, tenant.id, { Enabled: false }));

    // Assess
    expect(error).toBeInstanceOf(InvalidIfMatchVersion);
    expect(error.$metadata.httpStatusCode).toBe(400);
  });

  it('refuses a change made with a stale ETag (PreconditionFailed, 412), and changes nothing', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);
    await update(cf, tenant.id, { IfMatch: tenant.etag, Enabled: true });

    // Act
    const error = await failure(update(cf, tenant.id, { IfMatch: tenant.etag, Enabled: false }));
    const read = await cf.clients.cloudFront.send(new GetDistributionTenantCommand({ Identifier: tenant.id }));

    // Assess
    expect(error).toBeInstanceOf(PreconditionFailed);
    expect(error.$metadata.httpStatusCode).toBe(412);
    expect(read.DistributionTenant?.Enabled).toBe(true);
  });

  it('gives the tenant a new ETag when its certificate status changes', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);

    // Act
    cf.cloudFront.issueCertificate(tenant.host);
    const error = await failure(update(cf, tenant.id, { IfMatch: tenant.etag, Enabled: false }));

    // Assess
    expect(error).toBeInstanceOf(PreconditionFailed);
  });

  it('refuses an unknown tenant (EntityNotFound, 404)', async () => {
    // Prepare
    const cf = await harness();

    // Act
    const error = await failure(update(cf, 'dt_missing', { IfMatch: 'E0000000000000', Enabled: false }));

    // Assess
    expect(error).toBeInstanceOf(EntityNotFound);
    expect(error.$metadata.httpStatusCode).toBe(404);
  });

  it('refuses a domain another tenant holds (CNAMEAlreadyExists, 409)', async () => {
    // Prepare
    const cf = await harness();
    const [first, second] = [await createTenant(cf), await createTenant(cf)];

    // Act
    const error = await failure(update(cf, first.id, { IfMatch: first.etag, Domains: [first.host, second.host] }));

    // Assess
    expect(error).toBeInstanceOf(CNAMEAlreadyExists);
    expect(error.$metadata.httpStatusCode).toBe(409);
  });
});

describe('DeleteDistributionTenant', () => {
  const remove = (cf: Harness, Id: string, IfMatch?: string) =>
    cf.clients.cloudFront.send(new DeleteDistributionTenantCommand({ Id, IfMatch }));

  it('refuses an enabled tenant (ResourceNotDisabled, 409)', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);
    cf.cloudFront.deployPending();

    // Act
    const error = await failure(remove(cf, tenant.id, tenant.etag));

    // Assess
    expect(error).toBeInstanceOf(ResourceNotDisabled);
    expect(error.$metadata.httpStatusCode).toBe(409);
  });

  it('refuses a tenant whose disabling is not deployed yet (ResourceNotDisabled, 409)', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);
    const disabled = await update(cf, tenant.id, { IfMatch: tenant.etag, Enabled: false });

    // Act
    const error = await failure(remove(cf, tenant.id, disabled.ETag));

    // Assess
    expect(error).toBeInstanceOf(ResourceNotDisabled);
  });

  it('deletes a disabled, deployed tenant with its current ETag (204), freeing its domain', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);
    const disabled = await update(cf, tenant.id, { IfMatch: tenant.etag, Enabled: false });
    cf.cloudFront.deployPending();

    // Act
    const deleted = await remove(cf, tenant.id, disabled.ETag);
    const gone = await failure(cf.clients.cloudFront.send(new GetDistributionTenantCommand({ Identifier: tenant.id })));
    const again = await createTenant(cf, tenant.host);

    // Assess
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    expect(gone).toBeInstanceOf(EntityNotFound);
    expect(again.id).not.toBe(tenant.id);
  });

  it('refuses a delete without If-Match (400) or with a stale one (412)', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);
    const disabled = await update(cf, tenant.id, { IfMatch: tenant.etag, Enabled: false });
    cf.cloudFront.deployPending();

    // Act
    const missing = await failure(remove(cf, tenant.id));
    const stale = await failure(remove(cf, tenant.id, tenant.etag));

    // Assess
    expect(missing).toBeInstanceOf(InvalidIfMatchVersion);
    expect(stale).toBeInstanceOf(PreconditionFailed);
    expect(disabled.ETag).not.toBe(tenant.etag);
  });
});

describe('ListDistributionTenants', () => {
  it("pages a distribution's tenants with MaxItems and NextMarker", async () => {
    // Prepare
    const cf = await harness();
    const created = [await createTenant(cf), await createTenant(cf), await createTenant(cf)];
    const otherStage = cf.cloudFront.createDistribution();
    cf.cloudFront.seedTenant({ distributionId: otherStage.id, domains: [uniqueHost()] });
    const list = (Marker?: string) =>
      cf.clients.cloudFront.send(
        new ListDistributionTenantsCommand({
          AssociationFilter: { DistributionId: cf.distribution.id },
          MaxItems: 2,
          Marker,
        }),
      );

    // Act
    const first = await list();
    const second = await list(first.NextMarker);

    // Assess
    const ids = [...(first.DistributionTenantList ?? []), ...(second.DistributionTenantList ?? [])].map(
      (each) => each.Id,
    );
    expect(ids).toEqual(created.map((tenant) => tenant.id));
    expect(second.NextMarker).toBeUndefined();
    expect(first.DistributionTenantList?.[0]?.ETag).toBe(created[0]?.etag);
  });
});

describe('every control-plane call', () => {
  it('needs a signature: an unsigned request is refused (MissingAuthenticationToken, 403)', async () => {
    // Prepare
    const cf = await harness();

    // Act
    const answer = await fetch(`${cf.cloudFront.endpoint}/2020-05-31/connection-group/${cf.connectionGroup.id}`);
    const body = await answer.text();

    // Assess
    expect(answer.status).toBe(403);
    expect(body).toContain('<Code>MissingAuthenticationToken</Code>');
  });

  it('must be signed with SigV4 scoped to us-east-1: another region is refused (InvalidSignatureException, 403)', async () => {
    // Prepare
    const cf = await harness();
    const elsewhere = new CloudFrontClient({
      endpoint: cf.cloudFront.endpoint,
      region: 'eu-west-1',
      credentials: TEST_CREDENTIALS,
      maxAttempts: 1,
    });
    onTestFinished(() => elsewhere.destroy());

    // Act
    const error = await failure(elsewhere.send(new GetConnectionGroupCommand({ Identifier: cf.connectionGroup.id })));

    // Assess
    expect(error.name).toBe('InvalidSignatureException');
    expect(error.$metadata.httpStatusCode).toBe(403);
  });

  it('must be signed with the right secret (SignatureDoesNotMatch, 403) by a known key (InvalidClientTokenId, 403)', async () => {
    // Prepare
    const cf = await harness();
    const clientWith = (credentials: { accessKeyId: string; secretAccessKey: string }) => {
      const client = new CloudFrontClient({
        endpoint: cf.cloudFront.endpoint,
        region: 'us-east-1',
        credentials,
        maxAttempts: 1,
      });
      onTestFinished(() => client.destroy());
      return client;
    };
    const get = new GetConnectionGroupCommand({ Identifier: cf.connectionGroup.id });

    // Act
    const wrongSecret = await failure(clientWith({ accessKeyId: 'test', secretAccessKey: 'wrong' }).send(get));
    const unknownKey = await failure(clientWith({ accessKeyId: 'AKIAUNKNOWN', secretAccessKey: 'test' }).send(get));

    // Assess
    expect([wrongSecret.name, wrongSecret.$metadata.httpStatusCode]).toEqual(['SignatureDoesNotMatch', 403]);
    expect([unknownKey.name, unknownKey.$metadata.httpStatusCode]).toEqual(['InvalidClientTokenId', 403]);
  });

  it('is throttled on demand with CloudFront\'s "Throttling" (400), which the SDK retries', async () => {
    // Prepare
    const cf = await harness();
    const tenant = await createTenant(cf);
    const retrying = cf.clientsWith({ maxAttempts: 3 });
    const get = (client = cf.clients.cloudFront) =>
      client.send(new GetDistributionTenantCommand({ Identifier: tenant.id }));

    // Act
    cf.cloudFront.throttleNext('GetDistributionTenant', 1);
    const throttled = await failure(get());
    cf.cloudFront.throttleNext('GetDistributionTenant', 1);
    const retried = await get(retrying.cloudFront);

    // Assess
    expect(throttled).toBeInstanceOf(CloudFrontServiceException);
    expect(throttled.name).toBe('Throttling');
    expect(throttled.$metadata.httpStatusCode).toBe(400);
    expect(retried.$metadata.attempts).toBe(2);
    expect(cf.cloudFront.calls.filter((call) => call.errorCode === 'Throttling')).toHaveLength(2);
  });
});
