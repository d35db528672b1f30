import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * The item a failed condition returned (ReturnValuesOnConditionCheckFailure), or undefined when the item
 * did not exist. The document client does not unmarshall errors, so it is done here. Rethrows other errors.
 */
export function itemFromFailedCondition<Item>(error: unknown): Item | undefined {
  if (!(error instanceof ConditionalCheckFailedException)) throw error;
  return error.Item ? (unmarshall(error.Item) as Item) : undefined;
}
