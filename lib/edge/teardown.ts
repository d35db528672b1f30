/**
 * Takes a stage's runtime edge down before its stack is destroyed (`npm run edge -- teardown`, scripts/edge.ts):
 * CloudFormation made the distributions and the connection group but not the tenants, which the sync creates
 * at run time, and AWS refuses to delete a distribution (`ResourceInUse`) or a connection group
 * (`CannotDeleteEntityWhileInUse`) while tenants are associated with it. So: every tenant in the stage's
 * connection group on one of the stage's distributions (both ids checked, as the sync checks them: another
 * stage's tenant is never touched) is disabled, waited for until its disabling is deployed, deleted, and its
 * managed certificate deleted from ACM, where CloudFront leaves it. Safe to run again: what is gone is skipped.
 */
import { type CloudFrontClient, ListDistributionTenantsCommand } from '@aws-sdk/client-cloudfront';
import { cloudFrontTenants } from './cloudfront.ts';
import type { EdgeCertificates, PurgeableTenants } from './ports.ts';

export type StageResources = {
  /** Every shard's distribution. */
  distributionIds: readonly string[];
  connectionGroupId: string;
  tenantPrefix: string;
};

export type TeardownOptions = {
  cloudFront: CloudFrontClient;
  certificates?: EdgeCertificates;
  stage: StageResources;
  /** How long to wait for disablings to deploy before giving up (they take minutes on AWS). */
  waitMs?: number;
  /** Between two looks at the tenants still deploying. */
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
};

export type TeardownResult = {
  /** Tenants of the stage found (in its group, on its distributions). */
  found: number;
  deleted: number;
  certificates: number;
  /** Hosts whose tenant is still there (not deployed in time, or changed meanwhile): run the teardown again. */
  left: string[];
  /** Tenants in the group on a distribution that is not the stage's: left alone. */
  foreign: number;
};

/** The group's tenants: their first domain and distribution, page by page (ListDistributionTenants). */
async function tenantsOfGroup(client: CloudFrontClient, connectionGroupId: string) {
  const tenants: { host: string; distributionId: string; connectionGroupId: string }[] = [];
  let marker: string | undefined;
  do {
    const page = await client.send(
      new ListDistributionTenantsCommand({
        AssociationFilter: { ConnectionGroupId: connectionGroupId },
        Marker: marker,
      }),
    );
    for (const tenant of page.DistributionTenantList ?? []) {
      const host = tenant.Domains?.[0]?.Domain;
      if (host && tenant.DistributionId && tenant.ConnectionGroupId) {
        tenants.push({ host, distributionId: tenant.DistributionId, connectionGroupId: tenant.ConnectionGroupId });
      }
    }
    marker = page.NextMarker;
  } while (marker);
  return tenants;
}

export async function teardownEdge(options: TeardownOptions): Promise<TeardownResult> {
  const { cloudFront, certificates, stage } = options;
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const log = options.log ?? (() => {});
  const waitMs = options.waitMs ?? 30 * 60_000;
  const pollMs = options.pollMs ?? 15_000;
  // One adapter per distribution: each takes a tenant for the stage's only on its own distribution and group.
  const byDistribution = new Map<string, PurgeableTenants>(
    stage.distributionIds.map((distributionId) => [
      distributionId,
      cloudFrontTenants(cloudFront, {
        distributionIds: [distributionId],
        connectionGroupId: stage.connectionGroupId,
        tenantPrefix: stage.tenantPrefix,
        pointsAtEdge: async () => false,
      }),
    ]),
  );
  const listed = await tenantsOfGroup(cloudFront, stage.connectionGroupId);
  const ours = listed.filter(
    (tenant) => byDistribution.has(tenant.distributionId) && tenant.connectionGroupId === stage.connectionGroupId,
  );
  const result: TeardownResult = { found: ours.length, deleted: 0, certificates: 0, left: [], foreign: 0 };
  result.foreign = listed.length - ours.length;
  log(
    `${ours.length} tenants of the stage${result.foreign ? `, ${result.foreign} of other distributions left alone` : ''}`,
  );

  for (const { host, distributionId } of ours) await byDistribution.get(distributionId)?.remove(host);
  log(`disabled; waiting for the disablings to deploy (up to ${Math.round(waitMs / 60_000)} min)`);

  let pending = ours;
  const waitingCertificates: string[] = [];
  const started = Date.now();
  while (pending.length > 0 || waitingCertificates.length > 0) {
    const still: typeof pending = [];
    for (const tenant of pending) {
      const purged = await byDistribution.get(tenant.distributionId)?.purge(tenant.host);
      if (!purged) {
        still.push(tenant);
        continue;
      }
      result.deleted++;
      if (typeof purged === 'object') waitingCertificates.push(purged.certificateArn);
    }
    pending = still;
    for (const arn of waitingCertificates.splice(0)) {
      const outcome = certificates ? await certificates.remove(arn) : 'gone';
      if (outcome === 'deleted') result.certificates++;
      if (outcome === 'in_use') waitingCertificates.push(arn);
    }
    if (pending.length === 0 && waitingCertificates.length === 0) break;
    if (Date.now() - started >= waitMs) break;
    log(`${pending.length} tenants still deploying, ${waitingCertificates.length} certificates still in use`);
    await sleep(pollMs);
  }
  result.left = pending.map((tenant) => tenant.host);
  log(`${result.deleted} tenants and ${result.certificates} certificates deleted, ${result.left.length} left`);
  return result;
}
