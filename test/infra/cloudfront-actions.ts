/**
 * Every CloudFront, KeyValueStore and ACM action the edge sync's code needs, with the resource type the Service
 * Authorization Reference lists for it: the specification the edge sync's policy is checked against
 * (cloudfront-iam.test.ts, stack.test.ts), written from AWS's pages, not from the construct. Which actions the
 * sync needs is derived from the calls it makes (edge-function-calls.test.ts); the sweep's are its own
 * (edge-sweep-actions.ts).
 *
 * Sources (read 2026-11-26):
 * - "Actions, resources, and condition keys for Amazon CloudFront",
 *   https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudfront.html: the Actions
 *   table's "Resource types" column ("If there is no value for this column, you must specify all resources
 *   ("*") in the Resource element of your policy statement"), and its API operations table, which lists the
 *   actions an API call authorizes (CreateDistributionTenant: CreateDistributionTenant, GetVpcOrigin,
 *   TagResource).
 * - "Actions, resources, and condition keys for Amazon CloudFront KeyValueStore",
 *   https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazoncloudfrontkeyvaluestore.html:
 *   every data-plane action on `key-value-store*`.
 * - "AWS managed policies for Amazon CloudFront" (CloudFront Developer Guide), CloudFrontFullAccess, updated
 *   2025-04-28 "to request a managed certificate from ACM": `acm:RequestCertificate` on "*" with
 *   `aws:CalledViaLast = cloudfront.amazonaws.com`. The reference lists no ACM action for
 *   CreateDistributionTenant or UpdateDistributionTenant; AWS's own policy is the evidence that CloudFront asks
 *   ACM for the tenant's certificate with the caller's permissions.
 */

/** The resource forms the reference gives these actions. */
export type ResourceForm = '*' | 'distribution-tenant' | 'key-value-store' | 'certificate';

export type ActionRow = {
  action: string;
  resource: ResourceForm;
  /** The API call the code makes that needs it (`Command` class name), or why it is needed without its own call. */
  calledBy: string;
  condition?: Record<string, Record<string, string>>;
};

export const edgeSyncActions: readonly ActionRow[] = [
  // Actions table: no resource type.
  { action: 'cloudfront:CreateDistributionTenant', resource: '*', calledBy: 'CreateDistributionTenantCommand' },
  // Actions table: distribution-tenant* (required).
  {
    action: 'cloudfront:GetDistributionTenantByDomain',
    resource: 'distribution-tenant',
    calledBy: 'GetDistributionTenantByDomainCommand',
  },
  {
    action: 'cloudfront:UpdateDistributionTenant',
    resource: 'distribution-tenant',
    calledBy: 'UpdateDistributionTenantCommand',
  },
  {
    action: 'cloudfront:GetManagedCertificateDetails',
    resource: 'distribution-tenant',
    calledBy: 'GetManagedCertificateDetailsCommand',
  },
  // API operations table: CreateDistributionTenant authorizes TagResource (the sync tags tenants at creation);
  // its resource types include distribution-tenant. (GetVpcOrigin is for distributions with VPC origins: none.)
  {
    action: 'cloudfront:TagResource',
    resource: 'distribution-tenant',
    calledBy: 'CreateDistributionTenantCommand (Tags)',
  },
  // CloudFrontFullAccess: CloudFront requests the managed certificate from ACM.
  {
    action: 'acm:RequestCertificate',
    resource: '*',
    calledBy: 'CreateDistributionTenantCommand (ManagedCertificateRequest)',
    condition: { StringEquals: { 'aws:CalledViaLast': 'cloudfront.amazonaws.com' } },
  },
  // "Actions, resources, and condition keys for AWS Certificate Manager": DeleteCertificate on certificate*
  // (us-east-1, where CloudFront's are). A verify again replaces a failed certificate: the old one is deleted.
  {
    action: 'acm:DeleteCertificate',
    resource: 'certificate',
    calledBy: 'UpdateDistributionTenantCommand (ManagedCertificateRequest: the failed one deleted, acm.ts)',
  },
  // KeyValueStore: key-value-store* (required), every shard's store of the stage. The shard's writer reads the
  // store's version and a host's entry and writes batches; listing and deleting keys is the sweep's.
  {
    action: 'cloudfront-keyvaluestore:DescribeKeyValueStore',
    resource: 'key-value-store',
    calledBy: 'DescribeKeyValueStoreCommand',
  },
  { action: 'cloudfront-keyvaluestore:GetKey', resource: 'key-value-store', calledBy: 'GetKeyCommand' },
  { action: 'cloudfront-keyvaluestore:UpdateKeys', resource: 'key-value-store', calledBy: 'UpdateKeysCommand' },
];
