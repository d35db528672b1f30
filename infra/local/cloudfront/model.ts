/**
 * The local CloudFront's state for one account: multi-tenant distributions, connection groups (the account's
 * default one included), distribution tenants with their managed certificates, and key value stores. Identifiers
 * are shaped like CloudFront's (`dt_…` tenants, `cg_…` connection groups, `E…` distributions and ETags,
 * `d….cloudfront.net` routing endpoints), as in the API Reference's and the CLI's examples.
 */
import { randomBytes, randomUUID } from 'node:crypto';

export type Distribution = {
  id: string;
  arn: string;
  domainName: string;
  /** `tenant-only` for a multi-tenant distribution, `direct` for a standard one. */
  connectionMode: 'tenant-only' | 'direct';
  /** A standard distribution's alternate domain names (CNAMEs). */
  aliases: string[];
};

export type ConnectionGroup = {
  id: string;
  arn: string;
  name: string;
  routingEndpoint: string;
  isDefault: boolean;
  enabled: boolean;
  etag: string;
  createdTime: Date;
  lastModifiedTime: Date;
};

/** API Reference, ManagedCertificateDetails: `CertificateStatus` valid values. */
export type CertificateStatus =
  | 'pending-validation'
  | 'issued'
  | 'inactive'
  | 'expired'
  | 'validation-timed-out'
  | 'revoked'
  | 'failed';

export type ManagedCertificate = {
  arn: string;
  status: CertificateStatus;
  validationTokenHost: 'cloudfront' | 'self-hosted';
  primaryDomainName: string;
  /** The token ACM fetches over HTTP (the `.well-known/pki-validation` file name). */
  token: string;
};

export type Tag = { Key: string; Value?: string };

/** API Reference, Customizations: a tenant's certificate, web ACL and geographic restrictions. */
export type Customizations = {
  certificateArn?: string;
  webAcl?: { action: string; arn?: string };
  geoRestrictions?: { restrictionType: string; locations: string[] };
};

/** API Reference, Parameter: a name and its value, for the distribution's parameters. */
export type Parameter = { name: string; value: string };

export type Tenant = {
  id: string;
  arn: string;
  name: string;
  distributionId: string;
  connectionGroupId: string;
  domains: string[];
  enabled: boolean;
  status: 'InProgress' | 'Deployed';
  etag: string;
  createdTime: Date;
  lastModifiedTime: Date;
  tags: Tag[];
  certificate?: ManagedCertificate;
  /**
   * What the tenant overrides of its distribution. CloudFront fills `Certificate` with the managed certificate
   * once it is issued (as the AWS provider's tenant resource reads it back), so an update must send it again.
   */
  customizations?: Customizations;
  parameters: Parameter[];
};

export type KeyValueStore = {
  id: string;
  arn: string;
  name: string;
  etag: string;
  items: Map<string, string>;
  created: Date;
  lastModified: Date;
};

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MIXED = `ABCDEFGHIJKLMNOPQRSTUVWXYZ${LOWER}`;

function randomOf(alphabet: string, length: number): string {
  return [...randomBytes(length)].map((byte) => alphabet[byte % alphabet.length]).join('');
}

export const ids = {
  distribution: () => `E${randomOf(UPPER, 13)}`,
  etag: () => `E${randomOf(UPPER, 13)}`,
  tenant: () => `dt_${randomOf(MIXED, 27)}`,
  connectionGroup: () => `cg_${randomOf(MIXED, 27)}`,
  routingEndpoint: () => `d${randomOf(LOWER, 13)}.cloudfront.net`,
  keyValueStore: () => randomUUID(),
  keyValueStoreEtag: () => `KV${randomOf(UPPER, 13)}`,
  certificate: () => randomUUID(),
  token: () => randomOf('0123456789abcdef', 32),
};

/** A domain as CloudFront compares it: case-insensitive, without a trailing dot. */
export const domainKey = (domain: string): string => domain.trim().toLowerCase().replace(/\.$/, '');

/**
 * The account's tenants by ID, indexed by domain, ARN and name, so that a lookup stays constant-time with
 * 100,000 tenants (the full-scale benchmark). A tenant whose domains or certificate change is `set` again.
 */
export class TenantMap extends Map<string, Tenant> {
  private readonly byDomain = new Map<string, Tenant>();
  private readonly byName = new Map<string, Tenant>();
  private readonly byArn = new Map<string, Tenant>();
  /** What each tenant was indexed under when last set. */
  private readonly indexed = new Map<string, { domains: string[]; name: string; arn: string; certified: boolean }>();
  /** Tenants holding a managed certificate. */
  certified = 0;

  override set(id: string, tenant: Tenant): this {
    this.unindex(id);
    super.set(id, tenant);
    for (const domain of tenant.domains) this.byDomain.set(domain, tenant);
    this.byName.set(tenant.name, tenant);
    this.byArn.set(tenant.arn, tenant);
    const certified = tenant.certificate !== undefined;
    if (certified) this.certified++;
    this.indexed.set(id, { domains: [...tenant.domains], name: tenant.name, arn: tenant.arn, certified });
    return this;
  }

  override delete(id: string): boolean {
    this.unindex(id);
    return super.delete(id);
  }

  override clear(): void {
    for (const id of [...this.keys()]) this.delete(id);
  }

  private unindex(id: string) {
    const was = this.indexed.get(id);
    if (!was) return;
    for (const domain of was.domains) this.byDomain.delete(domain);
    this.byName.delete(was.name);
    this.byArn.delete(was.arn);
    if (was.certified) this.certified--;
    this.indexed.delete(id);
  }

  ofDomain(domain: string): Tenant | undefined {
    return this.byDomain.get(domain);
  }

  /** By ID, ARN or name. */
  find(identifier: string): Tenant | undefined {
    return this.get(identifier) ?? this.byArn.get(identifier) ?? this.byName.get(identifier);
  }
}

export class Account {
  readonly distributions = new Map<string, Distribution>();
  readonly connectionGroups = new Map<string, ConnectionGroup>();
  readonly tenants = new TenantMap();
  readonly stores = new Map<string, KeyValueStore>();
  readonly defaultConnectionGroup: ConnectionGroup;

  constructor(readonly accountId: string) {
    // "When you first create a distribution tenant and you don't specify a connection group, CloudFront will
    // automatically create a default connection group for you" (API Reference, ConnectionGroup): made up front.
    this.defaultConnectionGroup = this.addConnectionGroup('default-connection-group', true);
  }

  arn(resource: string): string {
    return `arn:aws:cloudfront::${this.accountId}:${resource}`;
  }

  addDistribution(connectionMode: Distribution['connectionMode'], aliases: readonly string[] = []): Distribution {
    const id = ids.distribution();
    const distribution: Distribution = {
      id,
      arn: this.arn(`distribution/${id}`),
      domainName: ids.routingEndpoint(),
      connectionMode,
      aliases: aliases.map(domainKey),
    };
    this.distributions.set(id, distribution);
    return distribution;
  }

  addConnectionGroup(name: string, isDefault = false, routingEndpoint = ids.routingEndpoint()): ConnectionGroup {
    const id = ids.connectionGroup();
    const now = new Date();
    const group: ConnectionGroup = {
      id,
      arn: this.arn(`connection-group/${id}`),
      name,
      routingEndpoint,
      isDefault,
      enabled: true,
      etag: ids.etag(),
      createdTime: now,
      lastModifiedTime: now,
    };
    this.connectionGroups.set(id, group);
    return group;
  }

  addKeyValueStore(name: string): KeyValueStore {
    const id = ids.keyValueStore();
    const now = new Date();
    const store: KeyValueStore = {
      id,
      arn: this.arn(`key-value-store/${id}`),
      name,
      etag: ids.keyValueStoreEtag(),
      items: new Map(),
      created: now,
      lastModified: now,
    };
    this.stores.set(store.arn, store);
    return store;
  }

  /** A connection group by ID, ARN or name (GetConnectionGroup's `Identifier`). */
  findConnectionGroup(identifier: string): ConnectionGroup | undefined {
    return [...this.connectionGroups.values()].find((group) => [group.id, group.arn, group.name].includes(identifier));
  }

  /** A tenant by ID, ARN or name (GetDistributionTenant's and GetManagedCertificateDetails' `Identifier`). */
  findTenant(identifier: string): Tenant | undefined {
    return this.tenants.find(identifier);
  }

  tenantOfDomain(domain: string): Tenant | undefined {
    return this.tenants.ofDomain(domainKey(domain));
  }

  /** What already holds `domain` in the account: a tenant (other than `except`) or a standard distribution. */
  holderOfDomain(domain: string, except?: Tenant): string | undefined {
    const key = domainKey(domain);
    const tenant = this.tenants.ofDomain(key);
    if (tenant && tenant !== except) return tenant.arn;
    return [...this.distributions.values()].find((distribution) => distribution.aliases.includes(key))?.arn;
  }
}
