/**
 * The sync's AWS side: the CloudFront KeyValueStore the edge function reads (its API is signed with SigV4A,
 * hence `@aws-sdk/signature-v4a`), and the CloudFront SaaS Manager tenant of each served host (one tenant per
 * active domain, on the stage's multi-tenant distribution, with a CloudFront-managed certificate).
 */
import '@aws-sdk/signature-v4a';
import { createHash } from 'node:crypto';
import {
  CloudFrontClient,
  CNAMEAlreadyExists,
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  type DistributionTenant,
  EntityNotFound,
  GetDistributionTenantByDomainCommand,
  GetManagedCertificateDetailsCommand,
  InvalidArgument,
  InvalidIfMatchVersion,
  type ManagedCertificateStatus,
  PreconditionFailed,
  ResourceNotDisabled,
  UpdateDistributionTenantCommand,
  type UpdateDistributionTenantCommandInput,
} from '@aws-sdk/client-cloudfront';
import {
  CloudFrontKeyValueStoreClient,
  ConflictException,
  DeleteKeyCommand,
  DescribeKeyValueStoreCommand,
  GetKeyCommand,
  ListKeysCommand,
  PutKeyCommand,
  ResourceNotFoundException,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import type { Serving } from '#lib/edge/rules/serving.ts';
import { type ListableEdgeStore, type PurgeableTenants, StoreChanged } from './ports.ts';
import type { EdgeRecord } from './rules/record.ts';

/** The store with ARN `kvsArn`: the value of a key with the store's ETag read before it (so a put is safe). */
export function cloudFrontStore(client: CloudFrontKeyValueStoreClient, kvsArn: string): ListableEdgeStore {
  const conditional = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      // The store's ETag moved since it was read: another write came first.
      if (error instanceof ConflictException) throw new StoreChanged();
      throw error;
    }
  };
  return {
    async read(key) {
      const { ETag } = await client.send(new DescribeKeyValueStoreCommand({ KvsARN: kvsArn }));
      try {
        const { Value } = await client.send(new GetKeyCommand({ KvsARN: kvsArn, Key: key }));
        return { value: Value === undefined ? null : JSON.parse(Value), etag: String(ETag) };
      } catch (error) {
        if (error instanceof ResourceNotFoundException) return { value: null, etag: String(ETag) };
        throw error;
      }
    },
    put: (key: string, value: EdgeRecord, ifMatch: string) =>
      conditional(() =>
        client.send(new PutKeyCommand({ KvsARN: kvsArn, Key: key, Value: JSON.stringify(value), IfMatch: ifMatch })),
      ),
    remove: (key, ifMatch) =>
      conditional(() => client.send(new DeleteKeyCommand({ KvsARN: kvsArn, Key: key, IfMatch: ifMatch }))),
    async *keys() {
      let token: string | undefined;
      do {
        const page = await client.send(new ListKeysCommand({ KvsARN: kvsArn, NextToken: token, MaxResults: 50 }));
        for (const item of page.Items ?? []) {
          if (item.Key !== undefined) yield { key: item.Key, value: item.Value === undefined ? null : item.Value };
        }
        token = page.NextToken;
      } while (token);
    },
  };
}

/** Certificate states that end without a certificate: the owner must fix the CNAME, then verify again. */
const FAILED_CERTIFICATES: ReadonlySet<string> = new Set(['failed', 'validation-timed-out', 'revoked', 'expired']);

/**
 * Where a tenant of this stage stands: `active` once enabled, deployed and with its managed certificate issued;
 * `failed` once the certificate cannot be issued; `provisioning` meanwhile.
 */
export function servingOf(
  tenant: { Enabled?: boolean; Status?: string },
  certificate: ManagedCertificateStatus | undefined,
): Serving {
  if (certificate !== undefined && FAILED_CERTIFICATES.has(certificate)) {
    return { state: 'failed', failure: 'certificate_failed' };
  }
  const serves = tenant.Enabled && tenant.Status === 'Deployed' && certificate === 'issued';
  return { state: serves ? 'active' : 'provisioning' };
}

/**
 * A tenant's name: the stage's prefix, then the host, so a console listing tells stages apart. CloudFront allows 3–128
 * letters, digits, dots and hyphens, starting and ending with a letter or digit (CreateDistributionTenant,
 * `Name`; AWS::CloudFront::DistributionTenant, "Name" pattern); a longer host keeps its start and gains a hash
 * of the whole, so names stay unique.
 */
export function tenantName(prefix: string, host: string): string {
  const name = `${prefix}-${host}`;
  if (name.length <= TENANT_NAME_MAX) return name;
  const hash = createHash('sha256').update(host).digest('hex').slice(0, 16);
  return `${name.slice(0, TENANT_NAME_MAX - hash.length - 1).replace(/[.-]+$/, '')}-${hash}`;
}

const TENANT_NAME_MAX = 128;

/** The stage's own CloudFront resources: its tenants live on its distribution, in its connection group. */
export type StageEdge = {
  /** What the stage's tenant names start with (`tenantName`). */
  tenantPrefix: string;
  distributionId: string;
  connectionGroupId: string;
  /** Whether the host's DNS points at the stage's edge now (its CNAME, or a flattened apex's addresses). */
  pointsAtEdge(host: string): Promise<boolean>;
};

/** CloudFront's refusal of a managed certificate for a name that does not point at it (yet). */
const isOwnershipRefusal = (error: unknown) =>
  error instanceof InvalidArgument && /ownership|pointing/i.test(error.message);

/**
 * The tenants of one stage (`EdgeTenants`, `lib/edge/sync.ts`). A tenant is found by its domain, which
 * CloudFront lets only one tenant hold; one of another distribution or connection group (another stage in the
 * account, say) is reported as the name being in use and never updated, disabled or deleted.
 */
export function cloudFrontTenants(client: CloudFrontClient, edge: StageEdge): PurgeableTenants {
  const ours = (tenant: DistributionTenant) =>
    tenant.DistributionId === edge.distributionId && tenant.ConnectionGroupId === edge.connectionGroupId;

  async function find(host: string) {
    try {
      const found = await client.send(new GetDistributionTenantByDomainCommand({ Domain: host }));
      const tenant = found.DistributionTenant;
      return tenant ? { tenant, etag: found.ETag, ours: ours(tenant) } : null;
    } catch (error) {
      if (error instanceof EntityNotFound) return null;
      throw error;
    }
  }
  type Found = NonNullable<Awaited<ReturnType<typeof find>>>;

  /** Updates one of our tenants, on the condition that it has not changed since it was read (its ETag). */
  const update = (
    found: Found,
    change: Pick<UpdateDistributionTenantCommandInput, 'Enabled' | 'ManagedCertificateRequest'>,
  ) =>
    client.send(
      new UpdateDistributionTenantCommand({
        Id: found.tenant.Id,
        DistributionId: found.tenant.DistributionId,
        ConnectionGroupId: found.tenant.ConnectionGroupId,
        Domains: (found.tenant.Domains ?? []).map((domain) => ({ Domain: domain.Domain })),
        IfMatch: found.etag,
        ...change,
      }),
    );

  async function certificateOf(tenantId: string | undefined) {
    const { ManagedCertificateDetails } = await client.send(
      new GetManagedCertificateDetailsCommand({ Identifier: tenantId }),
    );
    return ManagedCertificateDetails?.CertificateStatus;
  }

  // A certificate CloudFront issues and renews for the host, validated over the name's DNS pointing at it.
  const certificateRequest = (host: string) =>
    ({ ValidationTokenHost: 'cloudfront', PrimaryDomainName: host }) as const;

  /** Where one of our tenants stands now (its certificate asked for). */
  const servingNow = async (tenant: DistributionTenant) => servingOf(tenant, await certificateOf(tenant.Id));

  async function create(host: string): Promise<Serving> {
    try {
      await client.send(
        new CreateDistributionTenantCommand({
          DistributionId: edge.distributionId,
          ConnectionGroupId: edge.connectionGroupId,
          Name: tenantName(edge.tenantPrefix, host),
          Domains: [{ Domain: host }],
          Enabled: true,
          ManagedCertificateRequest: certificateRequest(host),
          // Which stack made it, for the console and cost reports (runtime resources get no stack tags).
          Tags: { Items: [{ Key: 'stack', Value: edge.tenantPrefix }] },
        }),
      );
    } catch (error) {
      // CloudFront does not see the record yet (its resolvers may lag ours): the next check tries again.
      if (isOwnershipRefusal(error)) return { state: 'waiting_for_dns' };
      // Another distribution (or account) has the name: never ours to take.
      if (error instanceof CNAMEAlreadyExists) return { state: 'failed', failure: 'name_in_use' };
      throw error;
    }
    // Read back rather than trust the answer: CloudFront may have deployed it and issued its certificate already
    // (the local CloudFront does at once), and nothing else would make the sync look again before the re-check.
    const created = await find(host);
    return created ? servingNow(created.tenant) : { state: 'provisioning' };
  }

  return {
    async ensure(host) {
      const found = await find(host);
      if (found && !found.ours) return { state: 'failed', failure: 'name_in_use' };
      if (!found) return (await edge.pointsAtEdge(host)) ? create(host) : { state: 'waiting_for_dns' };
      if (!found.tenant.Enabled) {
        await update(found, { Enabled: true });
        return { state: 'provisioning' };
      }
      const serving = await servingNow(found.tenant);
      // A certificate that failed is asked for again once the name points at the edge (the owner fixed it).
      if (serving.state === 'failed' && (await edge.pointsAtEdge(host))) {
        await update(found, { ManagedCertificateRequest: certificateRequest(host) });
        return { state: 'provisioning' };
      }
      return serving;
    },
    async remove(host) {
      const found = await find(host);
      if (found?.ours && found.tenant.Enabled) await update(found, { Enabled: false });
    },
    async purge(host) {
      const found = await find(host);
      // None, or another stage's: nothing of ours is left for this host.
      if (!found?.ours) return true;
      // Enabled again (served), or its disabling not yet deployed: not now.
      if (found.tenant.Enabled || found.tenant.Status !== 'Deployed') return false;
      try {
        await client.send(new DeleteDistributionTenantCommand({ Id: found.tenant.Id, IfMatch: found.etag }));
        return true;
      } catch (error) {
        if (error instanceof EntityNotFound) return true;
        // Changed since it was read (enabled again, say): the next sweep looks again.
        const changed = [PreconditionFailed, InvalidIfMatchVersion, ResourceNotDisabled].some(
          (type) => error instanceof type,
        );
        if (changed) return false;
        throw error;
      }
    },
  };
}

export { CloudFrontClient, CloudFrontKeyValueStoreClient };
