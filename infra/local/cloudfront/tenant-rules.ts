/**
 * A tenant request's fields, read from the XML the SDK sends (CreateDistributionTenantRequest,
 * UpdateDistributionTenantRequest), and the rules CreateDistributionTenant and UpdateDistributionTenant apply to
 * them, each with the page it comes from.
 */
import { controlPlane } from './errors.ts';
import {
  type Account,
  type ConnectionGroup,
  type Customizations,
  domainKey,
  type Parameter,
  type Tag,
  type Tenant,
} from './model.ts';
import { booleanOf, childOf, itemsOf, textOf, type XmlElement } from './xml.ts';

export type TenantRequest = {
  distributionId?: string;
  name?: string;
  domains?: string[];
  connectionGroupId?: string;
  enabled?: boolean;
  tags: Tag[];
  certificate?: { validationTokenHost: 'cloudfront' | 'self-hosted'; primaryDomainName?: string };
  customizations?: Customizations;
  parameters?: Parameter[];
};

/** The request's Customizations (API Reference, Customizations, Certificate, WebAclCustomization, GeoRestrictionCustomization). */
function customizationsOf(root: XmlElement): Customizations | undefined {
  const element = childOf(root, 'Customizations');
  if (!element) return undefined;
  const customizations: Customizations = {};
  const certificateArn = textOf(childOf(element, 'Certificate'), 'Arn');
  if (certificateArn) customizations.certificateArn = certificateArn;
  const webAcl = childOf(element, 'WebAcl');
  const action = textOf(webAcl, 'Action');
  if (action) customizations.webAcl = { action, ...(textOf(webAcl, 'Arn') ? { arn: textOf(webAcl, 'Arn') } : {}) };
  const geo = childOf(element, 'GeoRestrictions');
  const restrictionType = textOf(geo, 'RestrictionType');
  if (restrictionType) {
    customizations.geoRestrictions = {
      restrictionType,
      locations: itemsOf(geo, 'Locations').map((location) => location.text.trim()),
    };
  }
  return customizations;
}

export function tenantRequestOf(root: XmlElement): TenantRequest {
  const certificate = childOf(root, 'ManagedCertificateRequest');
  const host = textOf(certificate, 'ValidationTokenHost');
  // API Reference, ManagedCertificateRequest: ValidationTokenHost is `cloudfront | self-hosted`.
  if (certificate && host !== 'cloudfront' && host !== 'self-hosted') {
    throw controlPlane.invalidArgument('ValidationTokenHost must be cloudfront or self-hosted.');
  }
  const primaryDomainName = textOf(certificate, 'PrimaryDomainName');
  const domains = childOf(root, 'Domains')
    ? itemsOf(root, 'Domains').map((item) => textOf(item, 'Domain') ?? '')
    : undefined;
  const tags = itemsOf(childOf(root, 'Tags'), 'Items').map((tag) => ({
    Key: textOf(tag, 'Key') ?? '',
    ...(textOf(tag, 'Value') === undefined ? {} : { Value: textOf(tag, 'Value') }),
  }));
  const request: TenantRequest = { tags };
  const distributionId = textOf(root, 'DistributionId');
  const name = textOf(root, 'Name');
  const connectionGroupId = textOf(root, 'ConnectionGroupId');
  const enabled = booleanOf(root, 'Enabled');
  if (distributionId !== undefined) request.distributionId = distributionId;
  if (name !== undefined) request.name = name;
  if (domains !== undefined) request.domains = domains;
  if (connectionGroupId !== undefined) request.connectionGroupId = connectionGroupId;
  if (enabled !== undefined) request.enabled = enabled;
  const customizations = customizationsOf(root);
  if (customizations) request.customizations = customizations;
  if (childOf(root, 'Parameters')) {
    request.parameters = itemsOf(root, 'Parameters').map((item) => ({
      name: textOf(item, 'Name') ?? '',
      value: textOf(item, 'Value') ?? '',
    }));
  }
  if (host === 'cloudfront' || host === 'self-hosted') {
    request.certificate = { validationTokenHost: host, ...(primaryDomainName ? { primaryDomainName } : {}) };
  }
  return request;
}

/**
 * CLI reference, create-distribution-tenant (https://docs.aws.amazon.com/cli/latest/reference/cloudfront/create-distribution-tenant.html):
 * `--name` constraints, pattern `[a-zA-Z0-9][a-zA-Z0-9-.]{1,126}[a-zA-Z0-9]` (3 to 128 characters). Which error a
 * name breaking it gets is not documented; chosen: InvalidArgument ("An argument is invalid.").
 */
const TENANT_NAME = /^[a-zA-Z0-9][a-zA-Z0-9-.]{1,126}[a-zA-Z0-9]$/;

export function checkName(name: string | undefined): string {
  if (name === undefined || !TENANT_NAME.test(name)) {
    throw controlPlane.invalidArgument(
      'The distribution tenant name must match [a-zA-Z0-9][a-zA-Z0-9-.]{1,126}[a-zA-Z0-9].',
    );
  }
  return name;
}

/**
 * CreateDistributionTenant, Domains: "You must specify at least one domain in the request." A domain given twice
 * is not documented; chosen: InvalidArgument. Domains are kept as CloudFront compares them (lowercase).
 */
export function checkDomains(domains: readonly string[] | undefined): string[] {
  const keys = (domains ?? []).map(domainKey);
  if (keys.length === 0 || keys.some((key) => key === '')) {
    throw controlPlane.invalidArgument('You must specify at least one domain in the request.');
  }
  if (new Set(keys).size !== keys.length) throw controlPlane.invalidArgument('A domain is listed more than once.');
  return keys;
}

/**
 * CreateDistributionTenant, DistributionId: "The ID of the multi-tenant distribution to use" — an unknown one is
 * EntityNotFound (404). A standard (not multi-tenant) distribution's error is not documented; chosen: InvalidArgument.
 */
export function checkDistribution(account: Account, distributionId: string | undefined) {
  const distribution = distributionId === undefined ? undefined : account.distributions.get(distributionId);
  if (!distribution) throw controlPlane.entityNotFound('The specified distribution does not exist.');
  if (distribution.connectionMode !== 'tenant-only') {
    throw controlPlane.invalidArgument('The specified distribution is not a multi-tenant distribution.');
  }
  return distribution;
}

/** CreateDistributionTenant, ConnectionGroupId: an unknown connection group is EntityNotFound (404). */
export function checkConnectionGroup(account: Account, connectionGroupId: string): ConnectionGroup {
  const group = account.connectionGroups.get(connectionGroupId);
  if (!group) throw controlPlane.entityNotFound('The specified connection group does not exist.');
  return group;
}

/**
 * CNAMEAlreadyExists (409) when a domain is already on another tenant or a distribution of the account; the
 * message is CloudFront's, quoted in the README of
 * https://github.com/aws-samples/sample-aws-cf-saas-manager-vanity-url-redirect ("tenant domains are globally
 * unique"). Other accounts are not modelled.
 */
export function checkDomainsFree(account: Account, domains: readonly string[], except?: Tenant) {
  if (domains.some((domain) => account.holderOfDomain(domain, except) !== undefined)) {
    throw controlPlane.cnameAlreadyExists(
      'One or more of the CNAMEs you provided are already associated with a different resource.',
    );
  }
}

/**
 * CreateDistributionTenant's rules on its fields, in this order (CloudFront's own order is not documented):
 * name, domains, distribution, connection group (absent: the account's default one, "If you don't specify a
 * connection group, CloudFront uses the default connection group", API Reference, DistributionTenant), a name
 * unique in the account ("a friendly identifier that is unique within your Amazon Web Services account":
 * EntityAlreadyExists, 409, "The entity already exists. You must provide a unique entity."), free domains.
 */
export function checkNewTenant(account: Account, request: TenantRequest) {
  const name = checkName(request.name);
  const domains = checkDomains(request.domains);
  checkDistribution(account, request.distributionId);
  const group = request.connectionGroupId
    ? checkConnectionGroup(account, request.connectionGroupId)
    : account.defaultConnectionGroup;
  if ([...account.tenants.values()].some((tenant) => tenant.name === name)) {
    throw controlPlane.entityAlreadyExists('The entity already exists. You must provide a unique entity.');
  }
  checkDomainsFree(account, domains);
  // Not documented: a PrimaryDomainName outside the tenant's domains; chosen: InvalidArgument.
  const primary = request.certificate?.primaryDomainName;
  if (primary !== undefined && !domains.includes(domainKey(primary))) {
    throw controlPlane.invalidArgument('The PrimaryDomainName must be one of the tenant domains.');
  }
  return { name, domains, group };
}
