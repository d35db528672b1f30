/**
 * The sync's AWS side: the CloudFront KeyValueStore the edge function reads (its API is signed with SigV4A,
 * hence `@aws-sdk/signature-v4a`), and the CloudFront SaaS Manager tenant of each served host (one tenant per
 * active domain, on the stage's multi-tenant distribution, with a CloudFront-managed certificate).
 */
import '@aws-sdk/signature-v4a';
import {
  CloudFrontClient,
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  EntityNotFound,
  GetDistributionTenantByDomainCommand,
  GetManagedCertificateDetailsCommand,
  InvalidIfMatchVersion,
  type ManagedCertificateStatus,
  PreconditionFailed,
  ResourceNotDisabled,
  UpdateDistributionTenantCommand,
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
import type { ServingState } from '#lib/data/domain-status.ts';
import type { EdgeRecord } from './record.ts';
import type { ListableEdgeStore, PurgeableTenants } from './sweep.ts';
import { StoreChanged } from './sync.ts';

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
 * Whether a tenant serves its domain: enabled, deployed and with its managed certificate issued; `failed` once
 * the certificate cannot be issued; `pending` meanwhile (the certificate waits for the CNAME to the edge).
 */
export function servingOf(
  tenant: { Enabled?: boolean; Status?: string },
  certificate: ManagedCertificateStatus | undefined,
): ServingState {
  if (certificate !== undefined && FAILED_CERTIFICATES.has(certificate)) return 'failed';
  return tenant.Enabled && tenant.Status === 'Deployed' && certificate === 'issued' ? 'active' : 'pending';
}

/** A tenant's name: CloudFront allows letters, digits, dots and hyphens; a host is made of those. */
export const tenantName = (host: string) => host;

/**
 * Tenants of the distribution `distributionId`: `ensure` creates the host's tenant (or enables it again),
 * `remove` disables it (CloudFront deletes only disabled tenants, once disabled everywhere: the scheduled
 * sweep deletes disabled tenants later; meanwhile the store's tombstone already answers 404).
 */
export function cloudFrontTenants(client: CloudFrontClient, distributionId: string): PurgeableTenants {
  async function find(host: string) {
    try {
      const found = await client.send(new GetDistributionTenantByDomainCommand({ Domain: host }));
      return found.DistributionTenant ? { tenant: found.DistributionTenant, etag: found.ETag } : null;
    } catch (error) {
      if (error instanceof EntityNotFound) return null;
      throw error;
    }
  }
  async function setEnabled(host: string, enabled: boolean) {
    const found = await find(host);
    if (!found || found.tenant.Enabled === enabled) return found !== null;
    await client.send(
      new UpdateDistributionTenantCommand({
        Id: found.tenant.Id,
        DistributionId: found.tenant.DistributionId,
        Domains: (found.tenant.Domains ?? []).map((domain) => ({ Domain: domain.Domain })),
        Enabled: enabled,
        IfMatch: found.etag,
      }),
    );
    return true;
  }
  async function certificateOf(tenantId: string | undefined) {
    const { ManagedCertificateDetails } = await client.send(
      new GetManagedCertificateDetailsCommand({ Identifier: tenantId }),
    );
    return ManagedCertificateDetails?.CertificateStatus;
  }
  return {
    async ensure(host) {
      const found = await find(host);
      if (found?.tenant.Enabled) return servingOf(found.tenant, await certificateOf(found.tenant.Id));
      if (found) {
        await setEnabled(host, true);
        return 'pending';
      }
      await client.send(
        new CreateDistributionTenantCommand({
          DistributionId: distributionId,
          Name: tenantName(host),
          Domains: [{ Domain: host }],
          Enabled: true,
          // A certificate CloudFront issues and renews for the host, validated over the CNAME to the edge.
          ManagedCertificateRequest: { ValidationTokenHost: 'cloudfront', PrimaryDomainName: host },
        }),
      );
      return 'pending';
    },
    async remove(host) {
      await setEnabled(host, false);
    },
    async purge(host) {
      const found = await find(host);
      if (!found) return true;
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
