/**
 * The edge's teardown (lib/edge/teardown.ts, `npm run edge -- teardown`) against the local CloudFront: while a
 * stage's tenants exist, CloudFront refuses to delete its distribution (`ResourceInUse`) and its connection group
 * (`CannotDeleteEntityWhileInUse`), as AWS does; the teardown disables every tenant of the stage, waits for the
 * disablings to deploy, deletes the tenants and their certificates (which CloudFront leaves in ACM), and leaves
 * another stage's tenant alone. Then nothing of the stage is left, and the stack's deletes succeed.
 */
import { ACMClient } from '@aws-sdk/client-acm';
import {
  CannotDeleteEntityWhileInUse,
  DeleteConnectionGroupCommand,
  DeleteDistributionCommand,
  GetConnectionGroupCommand,
  GetDistributionCommand,
  ResourceInUse,
} from '@aws-sdk/client-cloudfront';
import { describe, expect, it, onTestFinished } from 'vitest';
import { acmCertificates } from '#lib/edge/acm.ts';
import { teardownEdge } from '#lib/edge/teardown.ts';
import { TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { failure, harness, uniqueHost } from './cloudfront-support.ts';

describe('tearing down a stage that has served', () => {
  it("deletes the stage's tenants and certificates, nothing else, after which its distribution and group can go", async () => {
    // Prepare: 120 tenants of the stage (more than a page of ListDistributionTenants), enabled with certificates
    // issued, and another stage's tenant in the same account.
    const cf = await harness();
    const { cloudFront } = cf;
    const acm = new ACMClient({
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      endpoint: cloudFront.endpoint,
      maxAttempts: 1,
    });
    onTestFinished(() => acm.destroy());
    const hosts = Array.from({ length: 120 }, () => uniqueHost());
    for (const host of hosts) {
      cloudFront.seedTenant({
        distributionId: cf.distribution.id,
        connectionGroupId: cf.connectionGroup.id,
        domains: [host],
        name: `domains-spaces-test-${host}`,
      });
    }
    const otherDistribution = cloudFront.createDistribution();
    const otherGroup = cloudFront.createConnectionGroup({ name: 'domains-spaces-other-edge' });
    const other = cloudFront.seedTenant({
      distributionId: otherDistribution.id,
      connectionGroupId: otherGroup.id,
      domains: [uniqueHost('other')],
    });
    const certificatesBefore = cloudFront.certificates().length;
    // CloudFormation's delete of the stack: disable, then delete the distribution and the group.
    cloudFront.disableForDeletion({ distributionId: cf.distribution.id });
    cloudFront.disableForDeletion({ connectionGroupId: cf.connectionGroup.id });
    const deleteDistribution = async () => {
      const { ETag } = await cf.clients.cloudFront.send(new GetDistributionCommand({ Id: cf.distribution.id }));
      return cf.clients.cloudFront.send(new DeleteDistributionCommand({ Id: cf.distribution.id, IfMatch: ETag }));
    };
    const deleteGroup = async () => {
      const { ETag } = await cf.clients.cloudFront.send(
        new GetConnectionGroupCommand({ Identifier: cf.connectionGroup.id }),
      );
      return cf.clients.cloudFront.send(new DeleteConnectionGroupCommand({ Id: cf.connectionGroup.id, IfMatch: ETag }));
    };

    // Act 1: the stack's deletes while tenants exist.
    const distributionRefused = await failure(deleteDistribution());
    const groupRefused = await failure(deleteGroup());
    // Assess 1
    expect(distributionRefused).toBeInstanceOf(ResourceInUse);
    expect(distributionRefused.$metadata.httpStatusCode).toBe(409);
    expect(groupRefused).toBeInstanceOf(CannotDeleteEntityWhileInUse);
    expect(groupRefused.$metadata.httpStatusCode).toBe(409);

    // Act 2: the teardown; its waits are when CloudFront deploys the disablings.
    let waits = 0;
    const result = await teardownEdge({
      cloudFront: cf.clients.cloudFront,
      certificates: acmCertificates(acm),
      stage: {
        distributionIds: [cf.distribution.id],
        connectionGroupId: cf.connectionGroup.id,
        tenantPrefix: 'domains-spaces-test',
      },
      sleep: async () => {
        waits++;
        cloudFront.deployPending();
      },
    });
    // Assess 2: every tenant of the stage and its certificate gone; the other stage's untouched
    expect(result).toEqual({ found: 120, deleted: 120, certificates: 120, left: [], foreign: 0 });
    expect(waits).toBeGreaterThanOrEqual(1);
    for (const host of hosts) expect(cloudFront.servingTenant(host)).toBeNull();
    const left = [...cloudFront.certificates()];
    expect(left).toHaveLength(certificatesBefore - 120);
    expect(left.map((certificate) => certificate.inUse)).toEqual([true]);
    expect(cloudFront.calls.filter((call) => call.input.Identifier === other.id)).toEqual([]);

    // Act 3: the stack's deletes again.
    const deletedDistribution = await deleteDistribution();
    const deletedGroup = await deleteGroup();
    // Assess 3
    expect(deletedDistribution.$metadata.httpStatusCode).toBe(204);
    expect(deletedGroup.$metadata.httpStatusCode).toBe(204);
  }, 60_000);

  it('leaves a tenant of another distribution in the stage’s group alone, and says so', async () => {
    // Prepare
    const cf = await harness();
    const stranger = cf.cloudFront.createDistribution();
    cf.cloudFront.seedTenant({
      distributionId: stranger.id,
      connectionGroupId: cf.connectionGroup.id,
      domains: [uniqueHost()],
    });
    // Act
    const result = await teardownEdge({
      cloudFront: cf.clients.cloudFront,
      stage: { distributionIds: [cf.distribution.id], connectionGroupId: cf.connectionGroup.id, tenantPrefix: 'x' },
      sleep: async () => cf.cloudFront.deployPending(),
    });
    // Assess
    expect(result).toMatchObject({ found: 0, deleted: 0, foreign: 1 });
    expect(cf.cloudFront.calls.filter((call) => call.operation === 'UpdateDistributionTenant')).toEqual([]);
  });
});
