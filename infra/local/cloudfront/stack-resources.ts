/**
 * The deletes CloudFormation makes of the stack's own CloudFront resources when the stack is destroyed, with the
 * rules of their pages in the Amazon CloudFront API Reference: GetDistribution (for its ETag), DeleteDistribution
 * and DeleteConnectionGroup. Both refuse while distribution tenants are associated, as AWS does: a multi-tenant
 * distribution "Before you can delete a multi-tenant distribution, you must first delete all associated
 * distribution tenants" ("Delete a distribution", CloudFront Developer Guide), answered `ResourceInUse` (409,
 * "Cannot delete this resource because it is in use", DeleteDistribution); a connection group
 * `CannotDeleteEntityWhileInUse` (409, "The entity cannot be deleted while it is in use", DeleteConnectionGroup).
 * Each also wants the resource disabled first (`DistributionNotDisabled`; `ResourceNotDisabled`), which
 * CloudFormation does with an update before it deletes: `disable` stands for that update here.
 */
import { type Answer, CloudFrontError, controlPlane } from './errors.ts';
import { type Account, ids } from './model.ts';
import { leaf, node, xmlDocument } from './xml.ts';

type Request = { identifier?: string; ifMatch?: string };

/** What the local CloudFront keeps of a distribution beyond its model: its ETag, and whether it is enabled. */
type DistributionState = { etag: string; enabled: boolean };

export function stackResourceOperations(account: Account) {
  const states = new Map<string, DistributionState>();
  const stateOf = (id: string): DistributionState => {
    let state = states.get(id);
    if (!state) {
      state = { etag: ids.etag(), enabled: true };
      states.set(id, state);
    }
    return state;
  };
  const distributionOf = (id: string | undefined) => {
    const distribution = id === undefined ? undefined : account.distributions.get(id);
    if (!distribution)
      throw new CloudFrontError('NoSuchDistribution', 404, 'The specified distribution does not exist.');
    return distribution;
  };
  const checkIfMatch = (etag: string, ifMatch: string | undefined) => {
    if (!ifMatch) throw controlPlane.invalidIfMatchVersion('The If-Match version is missing or not valid.');
    if (ifMatch !== etag) {
      throw controlPlane.preconditionFailed(
        'The precondition in one or more of the request fields evaluated to false.',
      );
    }
  };

  const operations = {
    /** GetDistribution: the distribution, with its ETag (what DeleteDistribution's If-Match takes). */
    async GetDistribution({ identifier }: Request): Promise<Answer> {
      const distribution = distributionOf(identifier);
      const { etag, enabled } = stateOf(distribution.id);
      const body = xmlDocument(
        'Distribution',
        leaf('Id', distribution.id),
        leaf('ARN', distribution.arn),
        leaf('Status', 'Deployed'),
        leaf('LastModifiedTime', new Date().toISOString()),
        leaf('InProgressInvalidationBatches', 0),
        leaf('DomainName', distribution.domainName),
        node(
          'DistributionConfig',
          leaf('CallerReference', distribution.id),
          leaf('Comment', ''),
          leaf('Enabled', enabled),
          leaf('ConnectionMode', distribution.connectionMode),
        ),
      );
      return { status: 200, headers: { 'content-type': 'text/xml', etag }, body };
    },

    async DeleteDistribution({ identifier, ifMatch }: Request): Promise<Answer> {
      const distribution = distributionOf(identifier);
      const state = stateOf(distribution.id);
      checkIfMatch(state.etag, ifMatch);
      if ([...account.tenants.values()].some((tenant) => tenant.distributionId === distribution.id)) {
        throw new CloudFrontError('ResourceInUse', 409, 'Cannot delete this resource because it is in use.');
      }
      if (state.enabled) {
        throw new CloudFrontError(
          'DistributionNotDisabled',
          409,
          'The specified CloudFront distribution is not disabled. You must disable the distribution before you can delete it.',
        );
      }
      account.distributions.delete(distribution.id);
      states.delete(distribution.id);
      return { status: 204 };
    },

    async DeleteConnectionGroup({ identifier, ifMatch }: Request): Promise<Answer> {
      const group = identifier === undefined ? undefined : account.connectionGroups.get(identifier);
      if (!group) throw controlPlane.entityNotFound('The specified connection group does not exist.');
      checkIfMatch(group.etag, ifMatch);
      if ([...account.tenants.values()].some((tenant) => tenant.connectionGroupId === group.id)) {
        throw new CloudFrontError(
          'CannotDeleteEntityWhileInUse',
          409,
          'The entity cannot be deleted while it is in use.',
        );
      }
      if (group.enabled) {
        throw controlPlane.resourceNotDisabled("The specified CloudFront resource hasn't been disabled yet.");
      }
      account.connectionGroups.delete(group.id);
      return { status: 204 };
    },
  };

  /** CloudFormation's update before a delete: the resource disabled (and deployed), with a new ETag. */
  function disable(resource: { distributionId: string } | { connectionGroupId: string }) {
    if ('distributionId' in resource) {
      const state = stateOf(distributionOf(resource.distributionId).id);
      state.enabled = false;
      state.etag = ids.etag();
      return;
    }
    const group = account.connectionGroups.get(resource.connectionGroupId);
    if (!group) throw new Error(`No connection group ${resource.connectionGroupId}`);
    group.enabled = false;
    group.etag = ids.etag();
  }

  return { operations, disable };
}
