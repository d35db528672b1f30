/**
 * The local CloudFront's control plane through the real `@aws-sdk/client-cloudfront`: distribution tenants in a
 * connection group, the DNS ownership check of CloudFront-validated certificates, and each documented refusal
 * with the SDK's own exception class and status (rules and their pages: infra/local/cloudfront/).
 */
import {
  CNAMEAlreadyExists,
  CreateDistributionTenantCommand,
  type CreateDistributionTenantCommandInput,
  EntityAlreadyExists,
  EntityNotFound,
  GetConnectionGroupCommand,
  GetDistributionTenantByDomainCommand,
  GetDistributionTenantCommand,
  GetManagedCertificateDetailsCommand,
  InvalidArgument,
} from '@aws-sdk/client-cloudfront';
import { describe, expect, it } from 'vitest';
import { OWNERSHIP_MESSAGE } from '#infra/local/cloudfront/index.ts';
import { pointsAt } from '#infra/local/cloudfront/ownership.ts';
import { failure, harness, uniqueHost } from './cloudfront-support.ts';

type Harness = Awaited<ReturnType<typeof harness>>;

/** The tenant the edge's sync creates for a host (lib/edge/cloudfront.ts), in the stage's connection group. */
const tenantFor = (cf: Harness, host: string, extra: Partial<CreateDistributionTenantCommandInput> = {}) =>
  new CreateDistributionTenantCommand({
    DistributionId: cf.distribution.id,
    ConnectionGroupId: cf.connectionGroup.id,
    Name: host,
    Domains: [{ Domain: host }],
    Enabled: true,
    ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: host },
    ...extra,
  });

describe('CreateDistributionTenant', () => {
  it('creates a tenant whose domain is a CNAME of its connection group, serving once deployed and certified', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);

    // Act
    const created = await cf.clients.cloudFront.send(tenantFor(cf, host));
    const certificate = await cf.clients.cloudFront.send(
      new GetManagedCertificateDetailsCommand({ Identifier: created.DistributionTenant?.Id }),
    );
    const servingBefore = cf.cloudFront.servingTenant(host);
    cf.cloudFront.deployPending();
    cf.cloudFront.issueCertificate(host);
    const after = await cf.clients.cloudFront.send(new GetDistributionTenantCommand({ Identifier: host }));

    // Assess
    expect(created.$metadata.httpStatusCode).toBe(201);
    expect(created.DistributionTenant).toMatchObject({
      Id: expect.stringMatching(/^dt_[A-Za-z0-9]{27}$/),
      Arn: `arn:aws:cloudfront::${cf.cloudFront.accountId}:distribution-tenant/${created.DistributionTenant?.Id}`,
      DistributionId: cf.distribution.id,
      ConnectionGroupId: cf.connectionGroup.id,
      Name: host,
      Domains: [{ Domain: host, Status: 'inactive' }],
      Enabled: true,
      Status: 'InProgress',
    });
    expect(created.ETag).toMatch(/^E[A-Z0-9]{13}$/);
    expect(certificate.ManagedCertificateDetails).toMatchObject({
      CertificateStatus: 'pending-validation',
      ValidationTokenHost: 'cloudfront',
      ValidationTokenDetails: [{ Domain: host, RedirectFrom: expect.stringContaining(`http://${host}/.well-known/`) }],
    });
    expect(servingBefore).toBeNull();
    expect(after.DistributionTenant).toMatchObject({
      Status: 'Deployed',
      Domains: [{ Domain: host, Status: 'active' }],
    });
    expect(cf.cloudFront.servingTenant(host)).toEqual({
      id: created.DistributionTenant?.Id,
      name: host,
      distributionId: cf.distribution.id,
      connectionGroupId: cf.connectionGroup.id,
    });
    expect(cf.cloudFront.calls.every((call) => call.status < 400)).toBe(true);
  });

  it('refuses a domain whose DNS does not point at CloudFront yet (InvalidArgument, 400)', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, host)));

    // Assess
    expect(error).toBeInstanceOf(InvalidArgument);
    expect(error.$metadata.httpStatusCode).toBe(400);
    expect(error.message).toBe(OWNERSHIP_MESSAGE);
    expect(cf.cloudFront.calls.at(-1)).toMatchObject({
      operation: 'CreateDistributionTenant',
      errorCode: 'InvalidArgument',
    });
  });

  it("refuses a CNAME to another connection group's routing endpoint", async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host, cf.cloudFront.defaultConnectionGroup.routingEndpoint);

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, host)));

    // Assess
    expect(error).toBeInstanceOf(InvalidArgument);
    expect(error.$metadata.httpStatusCode).toBe(400);
  });

  it("puts a tenant without ConnectionGroupId in the account's default group, whose routing endpoint DNS must name", async () => {
    // Prepare
    const cf = await harness();
    const [wrong, right] = [uniqueHost(), uniqueHost()];
    cf.pointAt(wrong);
    cf.pointAt(right, cf.cloudFront.defaultConnectionGroup.routingEndpoint);
    const withoutGroup = { ConnectionGroupId: undefined };

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, wrong, withoutGroup)));
    const created = await cf.clients.cloudFront.send(tenantFor(cf, right, withoutGroup));
    const group = await cf.clients.cloudFront.send(
      new GetConnectionGroupCommand({ Identifier: created.DistributionTenant?.ConnectionGroupId }),
    );

    // Assess
    expect(error).toBeInstanceOf(InvalidArgument);
    expect(created.DistributionTenant?.ConnectionGroupId).toBe(cf.cloudFront.defaultConnectionGroup.id);
    expect(group.ConnectionGroup).toMatchObject({ IsDefault: true, Status: 'Deployed', Enabled: true });
  });

  it("accepts an apex whose A records are all the routing endpoint's addresses, not one with a foreign address", async () => {
    // Prepare
    const cf = await harness();
    const [apex, mixed] = [`${uniqueHost('apex').split('.')[1]}.test`, `${uniqueHost('mixed').split('.')[1]}.test`];
    cf.pointApexAt(apex);
    cf.pointApexAt(mixed, [...cf.addressesOf(cf.connectionGroup.routingEndpoint).slice(0, 1), '127.0.0.99']);

    // Act
    const created = await cf.clients.cloudFront.send(tenantFor(cf, apex));
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, mixed)));

    // Assess
    expect(created.DistributionTenant?.Domains).toEqual([{ Domain: apex, Status: 'inactive' }]);
    expect(error).toBeInstanceOf(InvalidArgument);
  });

  it('counts a DNS failure as not pointing', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.dns.setMode(host, 'servfail');

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, host)));

    // Assess
    expect(error).toBeInstanceOf(InvalidArgument);
    expect(error.message).toBe(OWNERSHIP_MESSAGE);
  });

  it('compares the CNAME ignoring case and a trailing dot', async () => {
    // Prepare
    const cf = await harness();
    const endpoint = cf.connectionGroup.routingEndpoint;
    const group = {
      ...cf.connectionGroup,
      name: 'g',
      isDefault: false,
      enabled: true,
      etag: 'E',
      createdTime: new Date(),
      lastModifiedTime: new Date(),
    };
    const dns = (cname: string) => ({
      lookupRoute: async () => ({ cname, addresses: [] }),
      lookupAddresses: async () => [],
    });

    // Act
    const upperWithDot = await pointsAt(dns(`${endpoint.toUpperCase()}.`), 'x.example.com', group);
    const other = await pointsAt(dns(`x${endpoint}`), 'x.example.com', group);

    // Assess
    expect(upperWithDot).toBe(true);
    expect(other).toBe(false);
  });

  it('skips the DNS check for a self-hosted validation token', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();

    // Act
    const created = await cf.clients.cloudFront.send(
      tenantFor(cf, host, {
        ManagedCertificateRequest: { ValidationTokenHost: 'self-hosted', PrimaryDomainName: host },
      }),
    );

    // Assess
    expect(created.DistributionTenant?.Status).toBe('InProgress');
  });

  it("refuses a domain another stage's tenant holds in the account (CNAMEAlreadyExists, 409)", async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);
    const otherStage = cf.cloudFront.createDistribution({ connectionMode: 'tenant-only' });
    const seeded = cf.cloudFront.seedTenant({ distributionId: otherStage.id, domains: [host] });

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, host, { Name: `other-${host}` })));

    // Assess
    expect(error).toBeInstanceOf(CNAMEAlreadyExists);
    expect(error.$metadata.httpStatusCode).toBe(409);
    expect(cf.cloudFront.calls.some((call) => call.input.Identifier === seeded.id)).toBe(false);
  });

  it("refuses a domain that is a standard distribution's alias (CNAMEAlreadyExists, 409)", async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);
    cf.cloudFront.createDistribution({ connectionMode: 'direct', aliases: [host] });

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, host)));

    // Assess
    expect(error).toBeInstanceOf(CNAMEAlreadyExists);
  });

  it('refuses a name already used in the account (EntityAlreadyExists, 409)', async () => {
    // Prepare
    const cf = await harness();
    const [first, second] = [uniqueHost(), uniqueHost()];
    cf.pointAt(first);
    cf.pointAt(second);
    await cf.clients.cloudFront.send(tenantFor(cf, first));

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, second, { Name: first })));

    // Assess
    expect(error).toBeInstanceOf(EntityAlreadyExists);
    expect(error.$metadata.httpStatusCode).toBe(409);
  });

  it('lets one of two concurrent creates for a host win, refusing the other', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);

    // Act
    const results = await Promise.allSettled([
      cf.clients.cloudFront.send(tenantFor(cf, host)),
      cf.clients.cloudFront.send(tenantFor(cf, host)),
    ]);

    // Assess
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((result) => result.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(EntityAlreadyExists);
  });

  it.each([
    ['too short', 'ab'],
    ['starting with a hyphen', '-shop.example.com'],
    ['ending with a dot', 'shop.example.com.'],
    ['with an underscore', 'shop_1.example.com'],
    ['longer than 128 characters', `${'a'.repeat(125)}.com`],
  ])('refuses a name %s (InvalidArgument, 400)', async (_, name) => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, host, { Name: name })));

    // Assess
    expect(error).toBeInstanceOf(InvalidArgument);
    expect(error.$metadata.httpStatusCode).toBe(400);
  });

  it('accepts a name of 128 characters', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);

    // Act
    const created = await cf.clients.cloudFront.send(tenantFor(cf, host, { Name: `${'a'.repeat(124)}.com` }));

    // Assess
    expect(created.DistributionTenant?.Name).toHaveLength(128);
  });

  it('refuses a tenant without domains (InvalidArgument, 400)', async () => {
    // Prepare
    const cf = await harness();

    // Act
    const error = await failure(
      cf.clients.cloudFront.send(tenantFor(cf, uniqueHost(), { Domains: [], ManagedCertificateRequest: undefined })),
    );

    // Assess
    expect(error).toBeInstanceOf(InvalidArgument);
  });

  it('refuses an unknown distribution or connection group (EntityNotFound, 404)', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);

    // Act
    const noDistribution = await failure(
      cf.clients.cloudFront.send(tenantFor(cf, host, { DistributionId: 'E0000000000000' })),
    );
    const noGroup = await failure(cf.clients.cloudFront.send(tenantFor(cf, host, { ConnectionGroupId: 'cg_missing' })));

    // Assess
    expect(noDistribution).toBeInstanceOf(EntityNotFound);
    expect(noDistribution.$metadata.httpStatusCode).toBe(404);
    expect(noGroup).toBeInstanceOf(EntityNotFound);
  });

  it('refuses a standard distribution, which takes no tenants (InvalidArgument, 400)', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);
    const standard = cf.cloudFront.createDistribution({ connectionMode: 'direct' });

    // Act
    const error = await failure(cf.clients.cloudFront.send(tenantFor(cf, host, { DistributionId: standard.id })));

    // Assess
    expect(error).toBeInstanceOf(InvalidArgument);
  });
});

describe('reading tenants, certificates and connection groups', () => {
  it('finds a tenant by domain, ignoring case, and answers EntityNotFound (404) for a domain none holds', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);
    await cf.clients.cloudFront.send(tenantFor(cf, host));

    // Act
    const found = await cf.clients.cloudFront.send(
      new GetDistributionTenantByDomainCommand({ Domain: host.toUpperCase() }),
    );
    const error = await failure(
      cf.clients.cloudFront.send(new GetDistributionTenantByDomainCommand({ Domain: uniqueHost() })),
    );

    // Assess
    expect(found.DistributionTenant?.Name).toBe(host);
    expect(found.ETag).toMatch(/^E/);
    expect(error).toBeInstanceOf(EntityNotFound);
    expect(error.$metadata.httpStatusCode).toBe(404);
  });

  it('gives certificate details by tenant ID, ARN or name, with the status a test sets', async () => {
    // Prepare
    const cf = await harness();
    const host = uniqueHost();
    cf.pointAt(host);
    const { DistributionTenant: tenant } = await cf.clients.cloudFront.send(tenantFor(cf, host));
    const details = (Identifier: string | undefined) =>
      cf.clients.cloudFront.send(new GetManagedCertificateDetailsCommand({ Identifier }));

    // Act
    cf.cloudFront.failCertificate(host, 'validation-timed-out');
    const byArn = await details(tenant?.Arn);
    cf.cloudFront.failCertificate(host);
    const byName = await details(tenant?.Name);
    const missing = await failure(details('dt_missing'));

    // Assess
    expect(byArn.ManagedCertificateDetails?.CertificateStatus).toBe('validation-timed-out');
    expect(byArn.ManagedCertificateDetails?.CertificateArn).toMatch(
      /^arn:aws:acm:us-east-1:123456789012:certificate\//,
    );
    expect(byName.ManagedCertificateDetails?.CertificateStatus).toBe('failed');
    expect(missing).toBeInstanceOf(EntityNotFound);
    cf.cloudFront.deployPending();
    expect(cf.cloudFront.servingTenant(host)).toBeNull();
  });

  it("gives a connection group's routing endpoint, and EntityNotFound (404) for an unknown one", async () => {
    // Prepare
    const cf = await harness();

    // Act
    const group = await cf.clients.cloudFront.send(
      new GetConnectionGroupCommand({ Identifier: cf.connectionGroup.arn }),
    );
    const error = await failure(
      cf.clients.cloudFront.send(new GetConnectionGroupCommand({ Identifier: 'cg_missing' })),
    );

    // Assess
    expect(group.ConnectionGroup).toMatchObject({
      Id: cf.connectionGroup.id,
      RoutingEndpoint: expect.stringMatching(/^d[a-z0-9]{13}\.cloudfront\.net$/),
      Status: 'Deployed',
      Enabled: true,
      IsDefault: false,
    });
    expect(group.ETag).toBeDefined();
    expect(error).toBeInstanceOf(EntityNotFound);
  });
});
