/**
 * The control plane's answer bodies, in the shapes `@aws-sdk/client-cloudfront` deserializes (its schemas in
 * `dist-cjs`): a list without an `xmlName` on its members (DomainResultList, ValidationTokenDetailList) carries
 * `<member>` items, as the SDK itself sends them in requests — the API Reference renders them as `<DomainResult>`
 * and `<ValidationTokenDetail>`, which this SDK reads as an empty list; named members (`<Tag>`,
 * `<DistributionTenantSummary>`) keep their names. Timestamps are ISO 8601, REST-XML's default.
 */
import type { ConnectionGroup, Customizations, ManagedCertificate, Parameter, Tag, Tenant } from './model.ts';
import { leaf, node } from './xml.ts';

const time = (date: Date) => date.toISOString();

/**
 * A domain's `Status` (API Reference, DomainResult: "Whether the domain is active or inactive", `active |
 * inactive`). When a domain is active is not documented; chosen here: once its managed certificate is issued
 * (a tenant without one relies on the distribution's certificate: active).
 */
export const domainStatus = (tenant: Tenant): 'active' | 'inactive' => {
  if (tenant.certificate) return tenant.certificate.status === 'issued' ? 'active' : 'inactive';
  // Without a managed certificate, a domain is served only with a certificate of the tenant's own (its
  // Customizations): the stage's tenant-only distribution has none to lend.
  return tenant.customizations?.certificateArn ? 'active' : 'inactive';
};

const customizationsXml = (customizations: Customizations | undefined) =>
  customizations
    ? node(
        'Customizations',
        customizations.webAcl
          ? node('WebAcl', leaf('Action', customizations.webAcl.action), leaf('Arn', customizations.webAcl.arn))
          : '',
        customizations.certificateArn ? node('Certificate', leaf('Arn', customizations.certificateArn)) : '',
        customizations.geoRestrictions
          ? node(
              'GeoRestrictions',
              leaf('RestrictionType', customizations.geoRestrictions.restrictionType),
              node('Locations', ...customizations.geoRestrictions.locations.map((each) => leaf('Location', each))),
            )
          : '',
      )
    : '';

const parametersXml = (parameters: readonly Parameter[]) =>
  parameters.length === 0
    ? ''
    : node(
        'Parameters',
        ...parameters.map((parameter) => node('member', leaf('Name', parameter.name), leaf('Value', parameter.value))),
      );

const tagsXml = (tags: readonly Tag[]) =>
  node('Tags', node('Items', ...tags.map((tag) => node('Tag', leaf('Key', tag.Key), leaf('Value', tag.Value)))));

const domainsXml = (tenant: Tenant) =>
  node(
    'Domains',
    ...tenant.domains.map((domain) => node('member', leaf('Domain', domain), leaf('Status', domainStatus(tenant)))),
  );

/** The members of a DistributionTenant (API Reference, DistributionTenant), in the SDK schema's order. */
export const tenantXml = (tenant: Tenant): string =>
  [
    leaf('Id', tenant.id),
    leaf('DistributionId', tenant.distributionId),
    leaf('Name', tenant.name),
    leaf('Arn', tenant.arn),
    domainsXml(tenant),
    tagsXml(tenant.tags),
    customizationsXml(tenant.customizations),
    parametersXml(tenant.parameters),
    leaf('ConnectionGroupId', tenant.connectionGroupId),
    leaf('CreatedTime', time(tenant.createdTime)),
    leaf('LastModifiedTime', time(tenant.lastModifiedTime)),
    leaf('Enabled', tenant.enabled),
    leaf('Status', tenant.status),
  ].join('');

/** A DistributionTenantSummary (ListDistributionTenants): the tenant with its ETag, without tags. */
export const tenantSummaryXml = (tenant: Tenant): string =>
  node(
    'DistributionTenantSummary',
    leaf('Id', tenant.id),
    leaf('DistributionId', tenant.distributionId),
    leaf('Name', tenant.name),
    leaf('Arn', tenant.arn),
    domainsXml(tenant),
    leaf('CreatedTime', time(tenant.createdTime)),
    leaf('LastModifiedTime', time(tenant.lastModifiedTime)),
    leaf('ETag', tenant.etag),
    leaf('ConnectionGroupId', tenant.connectionGroupId),
    leaf('Enabled', tenant.enabled),
    leaf('Status', tenant.status),
  );

/** API Reference, ConnectionGroup: a group is `Deployed` here as soon as it exists. */
export const connectionGroupXml = (group: ConnectionGroup): string =>
  [
    leaf('Id', group.id),
    leaf('Name', group.name),
    leaf('Arn', group.arn),
    leaf('CreatedTime', time(group.createdTime)),
    leaf('LastModifiedTime', time(group.lastModifiedTime)),
    leaf('Ipv6Enabled', true),
    leaf('RoutingEndpoint', group.routingEndpoint),
    leaf('Status', 'Deployed'),
    leaf('Enabled', group.enabled),
    leaf('IsDefault', group.isDefault),
  ].join('');

/**
 * API Reference, ManagedCertificateDetails and ValidationTokenDetail; ACM's HttpRedirect describes the pair: the
 * CA fetches `RedirectFrom` (a URL on the domain), which must serve or redirect to `RedirectTo` (the URL hosting
 * the token). The exact URLs CloudFront shows are not documented; these follow ACM's `.well-known/pki-validation`.
 */
export const certificateXml = (certificate: ManagedCertificate, domains: readonly string[], accountId: string) =>
  [
    leaf('CertificateArn', certificate.arn),
    leaf('CertificateStatus', certificate.status),
    leaf('ValidationTokenHost', certificate.validationTokenHost),
    node(
      'ValidationTokenDetails',
      ...domains.map((domain) =>
        node(
          'member',
          leaf('Domain', domain),
          leaf('RedirectTo', `validation.us-east-1.acm-validations.aws/${accountId}/${certificate.token}.txt`),
          leaf('RedirectFrom', `http://${domain}/.well-known/pki-validation/${certificate.token}.txt`),
        ),
      ),
    ),
  ].join('');
