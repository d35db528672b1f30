/**
 * The control-plane operations on distribution tenants, connection groups and managed certificates, each with the
 * rules of its page in the Amazon CloudFront API Reference (https://docs.aws.amazon.com/cloudfront/latest/APIReference/):
 * CreateDistributionTenant, GetDistributionTenant, GetDistributionTenantByDomain, UpdateDistributionTenant,
 * DeleteDistributionTenant, ListDistributionTenants, GetManagedCertificateDetails, GetConnectionGroup. Tenant
 * fields and their validation live in tenant-rules.ts.
 */

import { certificateCount, retireCertificate } from './acm.ts';
import { certificateXml, connectionGroupXml, tenantSummaryXml, tenantXml } from './control-plane-xml.ts';
import { type Answer, controlPlane } from './errors.ts';
import { type Account, ids, type Tenant } from './model.ts';
import { type OwnershipDns, verifyOwnership } from './ownership.ts';
import {
  checkConnectionGroup,
  checkDistribution,
  checkDomains,
  checkDomainsFree,
  checkNewTenant,
  type TenantRequest,
  tenantRequestOf,
} from './tenant-rules.ts';
import { leaf, node, parseXml, textOf, XmlSyntaxError, xmlDocument } from './xml.ts';

export type ControlPlaneSettings = {
  certificates: 'issue-at-once' | 'manual';
  deployment: 'at-once' | 'manual';
  quotas: ControlPlaneQuotas;
};

/**
 * The account's quotas the control plane enforces. Defaults: "Distribution tenants per AWS account: 10,000"
 * (CloudFront Developer Guide, "Quotas on multi-tenant distributions"); ACM's "Number of ACM certificates:
 * 2,500" at a time ("Quotas", AWS Certificate Manager User Guide), every managed certificate counting, whatever
 * its state. A create or a certificate request past either answers EntityLimitExceeded (the error
 * CreateDistributionTenant and UpdateDistributionTenant document; which one ACM's quota gets is not documented).
 */
export type ControlPlaneQuotas = { tenants: number; certificates: number };
export const DEFAULT_CONTROL_PLANE_QUOTAS: ControlPlaneQuotas = { tenants: 10_000, certificates: 2_500 };

export type ControlPlaneRequest = {
  /** The path's identifier (`{Id}` or `{Identifier}`), decoded. */
  identifier?: string;
  query: URLSearchParams;
  ifMatch?: string;
  body: string;
};

const xmlAnswer = (status: number, body: string, etag?: string): Answer => ({
  status,
  headers: { 'content-type': 'text/xml', ...(etag ? { etag } : {}) },
  body,
});

function parseBody(body: string) {
  try {
    return parseXml(body);
  } catch (error) {
    // Not documented for a malformed body; chosen: the operation's own InvalidArgument.
    if (error instanceof XmlSyntaxError) throw controlPlane.invalidArgument(`Malformed XML: ${error.message}`);
    throw error;
  }
}

export function controlPlaneOperations(account: Account, dns: OwnershipDns, settings: ControlPlaneSettings) {
  const tenantAnswer = (status: number, tenant: Tenant) =>
    xmlAnswer(status, xmlDocument('DistributionTenant', tenantXml(tenant)), tenant.etag);

  /** Every change leaves the tenant `InProgress` with a new ETag until it is deployed (DistributionTenant.Status). */
  function changed(tenant: Tenant) {
    tenant.status = 'InProgress';
    tenant.etag = ids.etag();
    tenant.lastModifiedTime = new Date();
  }

  /** What `at-once` settings do once the answer is written: deploy, and issue a CloudFront-validated certificate. */
  function settle(tenant: Tenant) {
    if (settings.certificates === 'issue-at-once' && tenant.certificate?.status === 'pending-validation') {
      issue(tenant);
    }
    if (settings.deployment === 'at-once') tenant.status = 'Deployed';
  }

  /** The If-Match rules of UpdateDistributionTenant and DeleteDistributionTenant ("Errors" sections). */
  function checkIfMatch(tenant: Tenant, ifMatch: string | undefined) {
    if (!ifMatch) throw controlPlane.invalidIfMatchVersion('The If-Match version is missing or not valid.');
    if (ifMatch !== tenant.etag) {
      throw controlPlane.preconditionFailed(
        'The precondition in one or more of the request fields evaluated to false.',
      );
    }
  }

  /** UpdateDistributionTenant and DeleteDistributionTenant take the tenant's ID ("The ID of the distribution tenant"). */
  function tenantById(id: string | undefined): Tenant {
    const tenant = id === undefined ? undefined : account.tenants.get(id);
    if (!tenant) throw controlPlane.entityNotFound('The specified distribution tenant does not exist.');
    return tenant;
  }

  /** GetDistributionTenant, GetManagedCertificateDetails: "You can specify the ARN, ID, or name". */
  function tenantByIdentifier(identifier: string | undefined): Tenant {
    const tenant = identifier === undefined ? undefined : account.findTenant(identifier);
    if (!tenant) throw controlPlane.entityNotFound('The specified distribution tenant does not exist.');
    return tenant;
  }

  /** The account's quotas: a tenant more, a certificate more. */
  function checkQuotas(request: TenantRequest, newTenant: boolean) {
    if (newTenant && account.tenants.size >= settings.quotas.tenants) {
      throw controlPlane.entityLimitExceeded(
        'Your request contains more distribution tenants than are allowed per account.',
      );
    }
    if (request.certificate && certificateCount(account) >= settings.quotas.certificates) {
      throw controlPlane.entityLimitExceeded('The account has as many ACM certificates as its quota allows.');
    }
  }

  async function create({ body }: ControlPlaneRequest): Promise<Answer> {
    const request = tenantRequestOf(parseBody(body));
    const checked = checkNewTenant(account, request);
    checkQuotas(request, true);
    await verifyRequestedCertificate(request, checked.domains, checked.group);
    // Checked again after the DNS lookups: of two concurrent creates for one name or domain, only one wins.
    const { name, domains, group } = checkNewTenant(account, request);
    const id = ids.tenant();
    const now = new Date();
    const tenant: Tenant = {
      id,
      arn: account.arn(`distribution-tenant/${id}`),
      name,
      distributionId: request.distributionId ?? '',
      connectionGroupId: group.id,
      domains,
      // Not documented: a tenant created without `Enabled` is enabled (as a distribution tenant in the console).
      enabled: request.enabled ?? true,
      status: 'InProgress',
      etag: ids.etag(),
      createdTime: now,
      lastModifiedTime: now,
      tags: request.tags,
      parameters: request.parameters ?? [],
      ...(request.customizations ? { customizations: request.customizations } : {}),
      ...(request.certificate ? { certificate: newCertificate(account, request.certificate, domains) } : {}),
    };
    account.tenants.set(id, tenant);
    const answer = tenantAnswer(201, tenant);
    settle(tenant);
    return answer;
  }

  /** The ownership check applies to a certificate whose token CloudFront serves (ownership.ts). */
  async function verifyRequestedCertificate(
    request: TenantRequest,
    domains: readonly string[],
    group: Parameters<typeof verifyOwnership>[2],
  ) {
    if (request.certificate?.validationTokenHost === 'cloudfront') await verifyOwnership(dns, domains, group);
  }

  /**
   * UpdateDistributionTenant replaces the tenant's configuration with the request's: what it leaves out is taken
   * as cleared (the safe reading; the API Reference lists the fields, and the AWS provider sends them all back):
   * no Domains is refused ("You must specify at least one domain"), no ConnectionGroupId is the default group
   * (as on create), no Customizations or Parameters clear them, and with its Customizations the tenant loses the
   * managed certificate CloudFront put there. `Enabled` left out keeps the tenant's.
   */
  async function update({ identifier, ifMatch, body }: ControlPlaneRequest): Promise<Answer> {
    const tenant = tenantById(identifier);
    checkIfMatch(tenant, ifMatch);
    const request = tenantRequestOf(parseBody(body));
    if (request.distributionId !== undefined) checkDistribution(account, request.distributionId);
    const group = request.connectionGroupId
      ? checkConnectionGroup(account, request.connectionGroupId)
      : account.defaultConnectionGroup;
    const domains = checkDomains(request.domains);
    checkQuotas(request, false);
    checkDomainsFree(account, domains, tenant);
    const added = domains.filter((domain) => !tenant.domains.includes(domain));
    // Not documented for updates; chosen: new domains under a CloudFront-validated certificate are checked too.
    if (request.certificate) {
      await verifyRequestedCertificate(request, added, group);
      // Checked again after the DNS lookups, as CloudFront applies one change to one version at a time.
      checkIfMatch(tenant, ifMatch);
      checkDomainsFree(account, domains, tenant);
    }
    if (request.distributionId !== undefined) tenant.distributionId = request.distributionId;
    tenant.connectionGroupId = group.id;
    tenant.domains = domains;
    if (request.enabled !== undefined) tenant.enabled = request.enabled;
    const kept = request.customizations?.certificateArn;
    if (tenant.certificate?.status === 'issued' && kept !== tenant.certificate.arn) {
      // The issued certificate was in Customizations, which the request replaced without it: ACM keeps it.
      retireCertificate(account, tenant);
      delete tenant.certificate;
    }
    if (request.customizations) tenant.customizations = request.customizations;
    else delete tenant.customizations;
    tenant.parameters = request.parameters ?? [];
    if (request.certificate) {
      // The certificate asked for replaces the tenant's; ACM keeps the old one until it is deleted.
      retireCertificate(account, tenant);
      tenant.certificate = newCertificate(account, request.certificate, domains);
      if (tenant.customizations) delete tenant.customizations.certificateArn;
    }
    account.tenants.set(tenant.id, tenant); // indexed again: its domains and certificate may have changed
    changed(tenant);
    const answer = tenantAnswer(200, tenant);
    settle(tenant);
    return answer;
  }

  async function remove({ identifier, ifMatch }: ControlPlaneRequest): Promise<Answer> {
    const tenant = tenantById(identifier);
    checkIfMatch(tenant, ifMatch);
    // "If you use this API operation to delete a distribution tenant that is currently enabled, the request will
    // fail. To delete a distribution tenant, you must first disable the distribution tenant" (API Reference).
    if (tenant.enabled)
      throw controlPlane.resourceNotDisabled("The specified CloudFront resource hasn't been disabled yet.");
    // Not documented for tenants; as for a distribution, whose deletion waits until its disabling is deployed
    // ("When propagation is complete, the value of Status is Deployed", DeleteDistribution): still refused.
    if (tenant.status !== 'Deployed') {
      throw controlPlane.resourceNotDisabled("The specified CloudFront resource hasn't been disabled yet.");
    }
    account.tenants.delete(tenant.id);
    // Its managed certificate stays in ACM (acm.ts).
    retireCertificate(account, tenant);
    return { status: 204 };
  }

  async function get({ identifier }: ControlPlaneRequest): Promise<Answer> {
    return tenantAnswer(200, tenantByIdentifier(identifier));
  }

  /** GetDistributionTenantByDomain: "A domain name associated with the target distribution tenant." */
  async function getByDomain({ query }: ControlPlaneRequest): Promise<Answer> {
    const domain = query.get('domain');
    if (!domain) throw controlPlane.invalidArgument('The domain is required.');
    const tenant = account.tenantOfDomain(domain);
    if (!tenant) throw controlPlane.entityNotFound('No distribution tenant is associated with the domain.');
    return tenantAnswer(200, tenant);
  }

  /** Not documented, chosen: a tenant without a managed certificate has no details to get (EntityNotFound). */
  async function certificate({ identifier }: ControlPlaneRequest): Promise<Answer> {
    const tenant = tenantByIdentifier(identifier);
    if (!tenant.certificate) throw controlPlane.entityNotFound('The distribution tenant has no managed certificate.');
    const details = certificateXml(tenant.certificate, tenant.domains, account.accountId);
    return xmlAnswer(200, xmlDocument('ManagedCertificateDetails', details));
  }

  /** GetConnectionGroup: "The ID, name, or Amazon Resource Name (ARN) of the connection group." */
  async function connectionGroup({ identifier }: ControlPlaneRequest): Promise<Answer> {
    const group = identifier === undefined ? undefined : account.findConnectionGroup(identifier);
    if (!group) throw controlPlane.entityNotFound('The specified connection group does not exist.');
    return xmlAnswer(200, xmlDocument('ConnectionGroup', connectionGroupXml(group)), group.etag);
  }

  /** ListDistributionTenants, filtered by distribution or connection group; `Marker` is where a page starts. */
  async function list({ body }: ControlPlaneRequest): Promise<Answer> {
    const request = parseBody(body);
    const filter = request.children.find((child) => child.name === 'AssociationFilter');
    const distributionId = textOf(filter, 'DistributionId');
    const connectionGroupId = textOf(filter, 'ConnectionGroupId');
    // Not documented: the default page size; chosen 100.
    const maxItems = Number(textOf(request, 'MaxItems') ?? 100);
    const marker = textOf(request, 'Marker');
    const tenants = [...account.tenants.values()].filter(
      (tenant) =>
        (distributionId === undefined || tenant.distributionId === distributionId) &&
        (connectionGroupId === undefined || tenant.connectionGroupId === connectionGroupId),
    );
    const start = marker ? tenants.findIndex((tenant) => tenant.id === marker) : 0;
    if (start < 0) throw controlPlane.invalidArgument('The marker is not valid.');
    const page = tenants.slice(start, start + maxItems);
    const next = tenants[start + maxItems];
    const result = [leaf('NextMarker', next?.id), node('DistributionTenantList', ...page.map(tenantSummaryXml))];
    return xmlAnswer(200, xmlDocument('ListDistributionTenantsResult', ...result));
  }

  return {
    CreateDistributionTenant: create,
    GetDistributionTenant: get,
    GetDistributionTenantByDomain: getByDomain,
    UpdateDistributionTenant: update,
    DeleteDistributionTenant: remove,
    ListDistributionTenants: list,
    GetManagedCertificateDetails: certificate,
    GetConnectionGroup: connectionGroup,
  } satisfies Record<string, (request: ControlPlaneRequest) => Promise<Answer>>;
}

/**
 * A managed certificate issued: "your distribution tenant will be updated with the latest certificate status"
 * (ManagedCertificateDetails), a new ETag, and the certificate in the tenant's Customizations.
 */
export function issue(tenant: Tenant) {
  if (!tenant.certificate) return;
  tenant.certificate.status = 'issued';
  tenant.customizations = { ...tenant.customizations, certificateArn: tenant.certificate.arn };
  tenant.etag = ids.etag();
}

function newCertificate(
  account: Account,
  request: NonNullable<TenantRequest['certificate']>,
  domains: readonly string[],
): Tenant['certificate'] {
  // "a tenant created with a managed certificate starts pending-validation" (ManagedCertificateDetails).
  return {
    arn: `arn:aws:acm:us-east-1:${account.accountId}:certificate/${ids.certificate()}`,
    status: 'pending-validation',
    validationTokenHost: request.validationTokenHost,
    primaryDomainName: request.primaryDomainName ?? domains[0] ?? '',
    token: ids.token(),
  };
}
