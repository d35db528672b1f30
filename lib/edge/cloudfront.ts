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
  EntityAlreadyExists,
  EntityLimitExceeded,
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
  ServiceQuotaExceededException,
  UpdateKeysCommand,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import type { Serving } from '#lib/edge/rules/serving.ts';
import {
  type BatchEdgeStore,
  ControlPlaneBusy,
  type EdgeCertificates,
  type ListableEdgeStore,
  type PurgeableTenants,
  StoreChanged,
  StoreFull,
} from './ports.ts';
import type { EdgeEntry } from './rules/entry.ts';

/** The store with ARN `kvsArn`: the value of a key with the store's ETag read before it (so a put is safe). */
export function cloudFrontStore(
  client: CloudFrontKeyValueStoreClient,
  kvsArn: string,
): ListableEdgeStore & BatchEdgeStore {
  const conditional = async (write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      // The store's ETag moved since it was read: another write came first.
      if (error instanceof ConflictException) throw new StoreChanged();
      // "Limit exceeded": the store would pass its 5 MB.
      if (error instanceof ServiceQuotaExceededException) throw new StoreFull();
      throw error;
    }
  };
  const version = async () => {
    const { ETag } = await client.send(new DescribeKeyValueStoreCommand({ KvsARN: kvsArn }));
    return String(ETag);
  };
  const get = async (key: string) => {
    try {
      const { Value } = await client.send(new GetKeyCommand({ KvsARN: kvsArn, Key: key }));
      return Value === undefined ? null : JSON.parse(Value);
    } catch (error) {
      if (error instanceof ResourceNotFoundException) return null;
      throw error;
    }
  };
  // ListKeys: at most 50 items a page (MaxResults, "maximum allowed page is 50"), the sweep's page.
  const page = async (token?: string) => {
    const listed = await client.send(new ListKeysCommand({ KvsARN: kvsArn, NextToken: token, MaxResults: 50 }));
    const items = (listed.Items ?? []).flatMap((item) =>
      item.Key === undefined ? [] : [{ key: item.Key, value: item.Value === undefined ? null : item.Value }],
    );
    return listed.NextToken ? { items, next: listed.NextToken } : { items };
  };
  return {
    version,
    get,
    async read(key) {
      const etag = await version();
      return { value: await get(key), etag };
    },
    putAll: (puts, ifMatch) =>
      conditional(() =>
        client.send(
          new UpdateKeysCommand({
            KvsARN: kvsArn,
            IfMatch: ifMatch,
            Puts: puts.map(({ key, value }) => ({ Key: key, Value: JSON.stringify(value) })),
          }),
        ),
      ),
    put: (key: string, value: EdgeEntry, ifMatch: string) =>
      conditional(() =>
        client.send(new PutKeyCommand({ KvsARN: kvsArn, Key: key, Value: JSON.stringify(value), IfMatch: ifMatch })),
      ),
    remove: (key, ifMatch) =>
      conditional(() => client.send(new DeleteKeyCommand({ KvsARN: kvsArn, Key: key, IfMatch: ifMatch }))),
    async *keys() {
      let token: string | undefined;
      do {
        const listed = await page(token);
        yield* listed.items;
        token = listed.next;
      } while (token);
    },
    page,
    async usage() {
      const described = await client.send(new DescribeKeyValueStoreCommand({ KvsARN: kvsArn }));
      return { keys: described.ItemCount ?? 0, bytes: described.TotalSizeInBytes ?? 0 };
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
  tenant: Pick<DistributionTenant, 'Enabled' | 'Status' | 'Domains'>,
  certificate: ManagedCertificateStatus | undefined,
): Serving {
  if (certificate !== undefined && FAILED_CERTIFICATES.has(certificate)) {
    return { state: 'failed', failure: 'certificate_failed' };
  }
  // Each domain's own status (DomainResult: "Whether the domain is active or inactive"), besides the tenant's.
  const domainsActive = (tenant.Domains ?? []).every((domain) => domain.Status === 'active');
  const serves = tenant.Enabled && tenant.Status === 'Deployed' && certificate === 'issued' && domainsActive;
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

/**
 * The stage's own CloudFront resources: its tenants live on its distributions (one per shard, by shard number),
 * all in its one connection group.
 */
export type StageEdge = {
  /** What the stage's tenant names start with (`tenantName`). */
  tenantPrefix: string;
  distributionIds: readonly string[];
  connectionGroupId: string;
  /** Whether the host's DNS points at the stage's edge now (its CNAME, or a flattened apex's addresses). */
  pointsAtEdge(host: string): Promise<boolean>;
  /** Where a failed certificate goes once a new one is asked for (ACM keeps it, and counts it, until deleted). */
  certificates?: EdgeCertificates;
};

/** A call CloudFront's control plane throttled (the SDK's retries spent): `ControlPlaneBusy`. */
async function throttledAsBusy<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const { name, $retryable } = error as { name?: string; $retryable?: { throttling?: boolean } };
    if (name === 'Throttling' || name === 'ThrottlingException' || $retryable?.throttling) {
      throw new ControlPlaneBusy(error);
    }
    throw error;
  }
}

/** CloudFront's refusal of a managed certificate for a name that does not point at it (yet). */
const isOwnershipRefusal = (error: unknown) =>
  error instanceof InvalidArgument && /ownership|pointing/i.test(error.message);

/**
 * The tenants of one stage (`EdgeTenants`, `lib/edge/sync.ts`). A tenant is found by its domain, which
 * CloudFront lets only one tenant hold; one of another distribution or connection group (another stage in the
 * account, say) is reported as the name being in use and never updated, disabled or deleted. A host's tenant
 * is created on its shard's distribution; one already on another of the stage's shards stays there.
 */
export function cloudFrontTenants(client: CloudFrontClient, edge: StageEdge): PurgeableTenants {
  const ours = (tenant: DistributionTenant) =>
    edge.distributionIds.includes(tenant.DistributionId ?? '') && tenant.ConnectionGroupId === edge.connectionGroupId;

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

  /**
   * Updates one of our tenants, on the condition that it has not changed since it was read (its ETag). The
   * request carries the whole configuration as just read (UpdateDistributionTenant's fields: domains,
   * distribution, connection group, customizations, parameters, enabled), with only `change` different: an
   * update may take what it leaves out as cleared, and CloudFront keeps the issued certificate in
   * `Customizations.Certificate`.
   */
  const update = (
    found: Found,
    change: Pick<UpdateDistributionTenantCommandInput, 'Enabled' | 'ManagedCertificateRequest'>,
  ) => {
    const { tenant } = found;
    return client.send(
      new UpdateDistributionTenantCommand({
        Id: tenant.Id,
        DistributionId: tenant.DistributionId,
        ConnectionGroupId: tenant.ConnectionGroupId,
        Domains: (tenant.Domains ?? []).map((domain) => ({ Domain: domain.Domain })),
        ...(tenant.Customizations ? { Customizations: tenant.Customizations } : {}),
        ...(tenant.Parameters ? { Parameters: tenant.Parameters } : {}),
        Enabled: tenant.Enabled,
        IfMatch: found.etag,
        ...change,
      }),
    );
  };

  async function certificateOf(tenantId: string | undefined) {
    return (await certificateDetailsOf(tenantId))?.CertificateStatus;
  }

  /** The tenant's managed certificate (its ARN and status), or undefined for a tenant without one. */
  async function certificateDetailsOf(tenantId: string | undefined) {
    try {
      const { ManagedCertificateDetails } = await client.send(
        new GetManagedCertificateDetailsCommand({ Identifier: tenantId }),
      );
      return ManagedCertificateDetails;
    } catch (error) {
      // No managed certificate (yet): not served.
      if (error instanceof EntityNotFound) return undefined;
      throw error;
    }
  }

  // A certificate CloudFront issues and renews for the host, validated over the name's DNS pointing at it.
  const certificateRequest = (host: string) =>
    ({ ValidationTokenHost: 'cloudfront', PrimaryDomainName: host }) as const;

  /** Where one of our tenants stands now (its certificate asked for). */
  const servingNow = async (tenant: DistributionTenant) => servingOf(tenant, await certificateOf(tenant.Id));

  /**
   * A tenant another sync created for the host at the same time (`EntityAlreadyExists` for the name, or
   * `CNAMEAlreadyExists` for the domain): taken as the one wanted when it is ours, for this host alone.
   */
  async function adopted(host: string): Promise<Serving | null> {
    const found = await find(host);
    if (!found?.ours) return null;
    const domains = (found.tenant.Domains ?? []).map((domain) => domain.Domain);
    if (domains.length !== 1 || domains[0] !== host) return null;
    return servingNow(found.tenant);
  }

  async function create(host: string, shard: number): Promise<Serving> {
    const distributionId = edge.distributionIds[shard] ?? edge.distributionIds[0];
    let created: DistributionTenant | undefined;
    try {
      ({ DistributionTenant: created } = await client.send(
        new CreateDistributionTenantCommand({
          DistributionId: distributionId,
          ConnectionGroupId: edge.connectionGroupId,
          Name: tenantName(edge.tenantPrefix, host),
          Domains: [{ Domain: host }],
          Enabled: true,
          ManagedCertificateRequest: certificateRequest(host),
          // Which stack made it, for the console and cost reports (runtime resources get no stack tags).
          Tags: { Items: [{ Key: 'stack', Value: edge.tenantPrefix }] },
        }),
      ));
    } catch (error) {
      // CloudFront does not see the record yet (its resolvers may lag ours): the next check tries again.
      if (isOwnershipRefusal(error)) return { state: 'waiting_for_dns' };
      // A quota of the account is full (tenants, certificates): the service's, retried by the hourly re-check.
      if (error instanceof EntityLimitExceeded) return { state: 'failed', failure: 'capacity' };
      if (error instanceof EntityAlreadyExists || error instanceof CNAMEAlreadyExists) {
        const taken = await adopted(host);
        if (taken) return taken;
        // Another distribution (or account) has the name: never ours to take.
        if (error instanceof CNAMEAlreadyExists) return { state: 'failed', failure: 'name_in_use' };
      }
      throw error;
    }
    // Read back rather than trust the answer (which `created` is): CloudFront may have deployed it and issued
    // its certificate already (the local CloudFront does at once), and nothing else would make the sync look
    // again before the re-check.
    const now = created ? await find(host) : null;
    return now ? servingNow(now.tenant) : { state: 'provisioning' };
  }

  async function ensure(host: string, shard: number): Promise<Serving> {
    const found = await find(host);
    if (found && !found.ours) return { state: 'failed', failure: 'name_in_use' };
    if (!found) return (await edge.pointsAtEdge(host)) ? create(host, shard) : { state: 'waiting_for_dns' };
    if (!found.tenant.Enabled) {
      await update(found, { Enabled: true });
      return { state: 'provisioning' };
    }
    const serving = await servingNow(found.tenant);
    // A certificate that failed is asked for again once the name points at the edge (the owner fixed it).
    if (serving.state === 'failed' && (await edge.pointsAtEdge(host))) {
      const failed = (await certificateDetailsOf(found.tenant.Id))?.CertificateArn;
      try {
        // On the tenant as read: a sync that asked first moved its ETag, and this one asks for nothing more.
        await update(found, { ManagedCertificateRequest: certificateRequest(host) });
      } catch (error) {
        if (error instanceof PreconditionFailed) return { state: 'provisioning' };
        throw error;
      }
      // The tenant holds the new one: the failed one serves nothing, and would stay in ACM's quota.
      if (failed) await edge.certificates?.remove(failed);
      return { state: 'provisioning' };
    }
    return serving;
  }

  return {
    ensure: (host, shard = 0) => throttledAsBusy(() => ensure(host, shard)),
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
      // Read before the delete: CloudFront leaves the certificate in ACM, and nothing names it once the tenant is gone.
      const certificateArn = (await certificateDetailsOf(found.tenant.Id))?.CertificateArn;
      try {
        await client.send(new DeleteDistributionTenantCommand({ Id: found.tenant.Id, IfMatch: found.etag }));
        return certificateArn ? { certificateArn } : true;
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
