/**
 * A local CloudFront, faithful to what the edge's code calls: the control plane's distribution tenants,
 * connection groups and managed certificates (REST-XML, API version 2020-05-31) and the KeyValueStore data plane
 * (REST-JSON, SigV4A), on one HTTP server for the real SDK clients (`endpoint` override), answering with AWS's
 * documented rules and error codes. Run by the tests (test/support/cloudfront-harness.ts) and, later, npm start.
 * The stack's CloudFormation resources (distribution, connection group, key value store) are made with the setup
 * helpers; the local edge reads tenants and the store in process (`servingTenant`, `kvsValue`).
 */
import { lookup as systemLookup } from 'node:dns';
import { Agent, type AgentOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { accountCertificates, acmOperations } from './acm.ts';
import {
  type ControlPlaneQuotas,
  controlPlaneOperations,
  DEFAULT_CONTROL_PLANE_QUOTAS,
  issue,
} from './control-plane.ts';
import { keyValueStoreOperations, LIMITS } from './key-value-store-api.ts';
import { Account, type CertificateStatus, domainKey, ids, type Tenant } from './model.ts';
import type { OwnershipDns } from './ownership.ts';
import { type CloudFrontCall, createCloudFrontServer } from './server.ts';
import { stackResourceOperations } from './stack-resources.ts';

export { type AcmCertificate, accountCertificates } from './acm.ts';
export { LIMITS as KEY_VALUE_STORE_LIMITS } from './key-value-store-api.ts';
export type { CertificateStatus } from './model.ts';
export { OWNERSHIP_MESSAGE } from './ownership.ts';
export type { CloudFrontCall } from './server.ts';

export type LocalCloudFrontOptions = {
  /** Where to listen: 127.0.0.1 and a free port by default. */
  host?: string;
  port?: number;
  accountId?: string;
  /** Asked by the ownership check of tenants created with a CloudFront-validated certificate (ownership.ts). */
  dns: OwnershipDns;
  /** `issue-at-once`: a managed certificate is issued as soon as its tenant is created (npm start). */
  certificates?: 'issue-at-once' | 'manual';
  /** `at-once`: a tenant's change is deployed as soon as it is answered (npm start). */
  deployment?: 'at-once' | 'manual';
  /**
   * Access key ID → secret access key. Given, every signature is verified cryptographically and other keys are
   * refused; absent, any credentials are accepted and only the signature's form is checked.
   */
  credentials?: Readonly<Record<string, string>>;
  log?: (entry: Record<string, unknown>) => void;
  /**
   * Quotas, AWS's by default: each store's bytes (5 MB, "Quotas on key value stores"), tenants and ACM
   * certificates per account (`DEFAULT_CONTROL_PLANE_QUOTAS`); a test sets them small to fill them.
   */
  quotas?: Partial<ControlPlaneQuotas & { storeBytes: number }>;
  /** How long every call takes, in ms (a range; none by default): AWS's calls take tens of milliseconds. */
  latencyMs?: { min: number; max: number };
  /** The control plane's rate in calls per second, beyond which it answers Throttling (unlimited by default). */
  controlPlaneRate?: number;
  /** Whether every call is kept in `calls` (true by default); `callCounts` are kept either way. */
  recordCalls?: boolean;
};

/** The tenant CloudFront routes a viewer request for a host to (by Host/SNI). */
export type ServingTenant = { id: string; name: string; distributionId: string; connectionGroupId: string };

export type SeedTenant = {
  distributionId: string;
  domains: readonly string[];
  name?: string;
  connectionGroupId?: string;
  enabled?: boolean;
  status?: Tenant['status'];
  /** The managed certificate's status; null: no managed certificate. `issued` by default. */
  certificate?: CertificateStatus | null;
};

export type LocalCloudFront = {
  /** `http://host:port`: `new CloudFrontClient({ endpoint })`. */
  endpoint: string;
  /**
   * `http://localhost:port`: `new CloudFrontKeyValueStoreClient({ endpoint, requestHandler })`. The client's
   * endpoint rules prepend the store ARN's account (`{accountId}.localhost:port`), which `lookup` resolves here.
   */
  kvsEndpoint: string;
  /** A handler whose agent resolves `<account>.localhost` to this server: give it to the KeyValueStore client. */
  requestHandler: NodeHttpHandler;
  lookup: NonNullable<AgentOptions['lookup']>;
  accountId: string;
  defaultConnectionGroup: { id: string; arn: string; routingEndpoint: string };
  createDistribution(options?: { connectionMode?: 'tenant-only' | 'direct'; aliases?: readonly string[] }): {
    id: string;
    arn: string;
    domainName: string;
  };
  /**
   * A connection group, as the stack's `AWS::CloudFront::ConnectionGroup`: CloudFront names its routing endpoint
   * (`d….cloudfront.net`); the local stack gives its own (its EDGE_HOSTNAME), which its DNS can point at.
   */
  createConnectionGroup(options: { name: string; routingEndpoint?: string }): {
    id: string;
    arn: string;
    routingEndpoint: string;
  };
  createKeyValueStore(name: string): { arn: string; id: string };
  /** The enabled, deployed tenant holding `host` with its certificate issued, or null. */
  servingTenant(host: string): ServingTenant | null;
  /** The CloudFront Function's read of the store: the value of `key`, or null. */
  kvsValue(kvsArn: string, key: string): string | null;
  issueCertificate(domain: string): void;
  failCertificate(domain: string, status?: Exclude<CertificateStatus, 'issued' | 'pending-validation'>): void;
  /** ACM's certificates in the account (acm.ts): the tenants' and those no tenant holds any more. */
  certificates(): ReturnType<typeof accountCertificates>;
  /**
   * What CloudFormation does before it deletes the stack's distribution or connection group: disables it
   * (stack-resources.ts), so that DeleteDistribution and DeleteConnectionGroup can then be called.
   */
  disableForDeletion(resource: { distributionId: string } | { connectionGroupId: string }): void;
  /** Moves every `InProgress` tenant to `Deployed`. */
  deployPending(): void;
  /** The next `count` calls of `operation` get CloudFront's throttling error. */
  throttleNext(operation: string, count: number): void;
  seedTenant(tenant: SeedTenant): { id: string; arn: string; etag: string };
  readonly calls: readonly CloudFrontCall[];
  /** Calls answered so far, by `operation` or `operation:errorCode`, and successful `UpdateKeys@<store ARN>`. */
  callCounts(): ReadonlyMap<string, number>;
  close(): Promise<void>;
};

const hostOf = (host: string) => domainKey(host.replace(/:\d+$/, ''));

export async function startLocalCloudFront(options: LocalCloudFrontOptions): Promise<LocalCloudFront> {
  const host = options.host ?? '127.0.0.1';
  const account = new Account(options.accountId ?? '123456789012');
  const { storeBytes = LIMITS.storeBytes, ...controlQuotas } = options.quotas ?? {};
  const settings = {
    certificates: options.certificates ?? 'issue-at-once',
    deployment: options.deployment ?? 'at-once',
    quotas: { ...DEFAULT_CONTROL_PLANE_QUOTAS, ...controlQuotas },
  };
  const throttles = new Map<string, number>();
  const calls: CloudFrontCall[] = [];
  const counts = new Map<string, number>();
  const stackResources = stackResourceOperations(account);
  const server = createCloudFrontServer({
    control: { ...controlPlaneOperations(account, options.dns, settings), ...stackResources.operations },
    acm: acmOperations(account),
    kvs: keyValueStoreOperations(account, { storeBytes }),
    ...(options.latencyMs ? { latencyMs: options.latencyMs } : {}),
    ...(options.controlPlaneRate === undefined ? {} : { controlPlaneRate: options.controlPlaneRate }),
    throttles,
    calls,
    counts,
    ...(options.recordCalls === undefined ? {} : { recordCalls: options.recordCalls }),
    ...(options.credentials ? { credentials: options.credentials } : {}),
    ...(options.log ? { log: options.log } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const loopback = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;

  const lookup: LocalCloudFront['lookup'] = (hostname, lookupOptions, callback) => {
    if (hostname !== 'localhost' && !hostname.endsWith('.localhost')) {
      systemLookup(hostname, lookupOptions, callback);
      return;
    }
    const family = loopback.includes(':') ? 6 : 4;
    if (lookupOptions.all) callback(null, [{ address: loopback, family }]);
    else callback(null, loopback, family);
  };
  const agent = new Agent({ keepAlive: true, lookup });

  function certifiedTenant(domain: string): Tenant & Required<Pick<Tenant, 'certificate'>> {
    const tenant = account.tenantOfDomain(domain);
    if (!tenant?.certificate) throw new Error(`No tenant with a managed certificate holds ${domain}`);
    return tenant as Tenant & Required<Pick<Tenant, 'certificate'>>;
  }
  /** "Your distribution tenant will be updated with the latest certificate status" (ManagedCertificateDetails): a new ETag. */
  function setCertificate(domain: string, status: CertificateStatus) {
    const tenant = certifiedTenant(domain);
    if (status === 'issued') return issue(tenant);
    tenant.certificate.status = status;
    tenant.etag = ids.etag();
  }

  const { defaultConnectionGroup: defaultGroup } = account;
  return {
    endpoint: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    kvsEndpoint: `http://localhost:${port}`,
    requestHandler: new NodeHttpHandler({ httpAgent: agent }),
    lookup,
    accountId: account.accountId,
    defaultConnectionGroup: {
      id: defaultGroup.id,
      arn: defaultGroup.arn,
      routingEndpoint: defaultGroup.routingEndpoint,
    },
    createDistribution({ connectionMode = 'tenant-only', aliases = [] } = {}) {
      const { id, arn, domainName } = account.addDistribution(connectionMode, aliases);
      return { id, arn, domainName };
    },
    createConnectionGroup({ name, routingEndpoint: endpoint }) {
      const { id, arn, routingEndpoint } = account.addConnectionGroup(name, false, endpoint);
      return { id, arn, routingEndpoint };
    },
    createKeyValueStore(name) {
      // CreateKeyValueStore: "In your account, the key value store names must be unique."
      if ([...account.stores.values()].some((store) => store.name === name)) {
        throw new Error(`A key value store named ${name} already exists`);
      }
      const { arn, id } = account.addKeyValueStore(name);
      return { arn, id };
    },
    servingTenant(requested) {
      const tenant = account.tenantOfDomain(hostOf(requested));
      const serves = tenant?.enabled && tenant.status === 'Deployed' && tenant.certificate?.status === 'issued';
      if (!tenant || !serves) return null;
      const { id, name, distributionId, connectionGroupId } = tenant;
      return { id, name, distributionId, connectionGroupId };
    },
    kvsValue: (kvsArn, key) => account.stores.get(kvsArn)?.items.get(key) ?? null,
    issueCertificate: (domain) => setCertificate(domain, 'issued'),
    failCertificate: (domain, status = 'failed') => setCertificate(domain, status),
    certificates: () => accountCertificates(account),
    disableForDeletion: (resource) => stackResources.disable(resource),
    deployPending() {
      for (const tenant of account.tenants.values()) tenant.status = 'Deployed';
    },
    throttleNext(operation, count) {
      throttles.set(operation, count);
    },
    seedTenant(seed) {
      const domains = seed.domains.map(domainKey);
      const taken = domains.find((domain) => account.holderOfDomain(domain) !== undefined);
      if (taken) throw new Error(`${taken} is already held in this account`);
      const id = ids.tenant();
      const now = new Date();
      const certificate = seed.certificate === undefined ? 'issued' : seed.certificate;
      const certificateArn = `arn:aws:acm:us-east-1:${account.accountId}:certificate/${ids.certificate()}`;
      const tenant: Tenant = {
        id,
        arn: account.arn(`distribution-tenant/${id}`),
        name: seed.name ?? domains[0] ?? id,
        distributionId: seed.distributionId,
        connectionGroupId: seed.connectionGroupId ?? defaultGroup.id,
        domains,
        enabled: seed.enabled ?? true,
        status: seed.status ?? 'Deployed',
        etag: ids.etag(),
        createdTime: now,
        lastModifiedTime: now,
        tags: [],
        parameters: [],
        ...(certificate === 'issued' ? { customizations: { certificateArn } } : {}),
        ...(certificate === null
          ? {}
          : {
              certificate: {
                arn: certificateArn,
                status: certificate,
                validationTokenHost: 'cloudfront' as const,
                primaryDomainName: domains[0] ?? '',
                token: ids.token(),
              },
            }),
      };
      account.tenants.set(id, tenant);
      return { id, arn: tenant.arn, etag: tenant.etag };
    },
    calls,
    callCounts: () => counts,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      agent.destroy();
      await closed;
    },
  };
}
