/**
 * Every AWS action the edge sweep's code needs (functions/edge/sweep.ts: `cloudFrontStore`'s list, read and
 * delete, `cloudFrontTenants`' purge, `acmCertificates`), with the resource form the Service Authorization
 * Reference lists for it: what the sweep's policy is checked against (edge-sweep.test.ts, stack.test.ts).
 *
 * Sources:
 * - "Actions, resources, and condition keys for Amazon CloudFront KeyValueStore": every data-plane action on
 *   `key-value-store*` (here each shard's store).
 * - "Actions, resources, and condition keys for Amazon CloudFront": GetDistributionTenantByDomain,
 *   GetManagedCertificateDetails and DeleteDistributionTenant on `distribution-tenant*`.
 * - "Actions, resources, and condition keys for AWS Certificate Manager": DeleteCertificate on `certificate*`
 *   (`arn:${Partition}:acm:${Region}:${Account}:certificate/${CertificateId}`, here us-east-1, where CloudFront's
 *   certificates are); ListCertificates with no resource type ("*").
 * - DynamoDB's `dynamodb:LeadingKeys` condition key ("Using IAM policy conditions for fine-grained access
 *   control", DynamoDB Developer Guide): the cursor item's partition only.
 */
export type SweepResourceForm = '*' | 'distribution-tenant' | 'key-value-store' | 'certificate' | 'table';

export const edgeSweepActions: readonly { action: string; resource: SweepResourceForm; calledBy: string }[] = [
  { action: 'cloudfront-keyvaluestore:ListKeys', resource: 'key-value-store', calledBy: 'ListKeysCommand' },
  {
    action: 'cloudfront-keyvaluestore:DescribeKeyValueStore',
    resource: 'key-value-store',
    calledBy: 'DescribeKeyValueStoreCommand',
  },
  { action: 'cloudfront-keyvaluestore:GetKey', resource: 'key-value-store', calledBy: 'GetKeyCommand' },
  { action: 'cloudfront-keyvaluestore:DeleteKey', resource: 'key-value-store', calledBy: 'DeleteKeyCommand' },
  {
    action: 'cloudfront:GetDistributionTenantByDomain',
    resource: 'distribution-tenant',
    calledBy: 'GetDistributionTenantByDomainCommand',
  },
  {
    action: 'cloudfront:GetManagedCertificateDetails',
    resource: 'distribution-tenant',
    calledBy: 'GetManagedCertificateDetailsCommand',
  },
  {
    action: 'cloudfront:DeleteDistributionTenant',
    resource: 'distribution-tenant',
    calledBy: 'DeleteDistributionTenantCommand',
  },
  { action: 'acm:DeleteCertificate', resource: 'certificate', calledBy: 'DeleteCertificateCommand' },
  { action: 'acm:ListCertificates', resource: '*', calledBy: 'ListCertificatesCommand' },
  { action: 'dynamodb:GetItem', resource: 'table', calledBy: 'GetCommand (the cursor)' },
  { action: 'dynamodb:PutItem', resource: 'table', calledBy: 'PutCommand (the cursor)' },
];
