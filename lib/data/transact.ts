import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { Db } from '#lib/dynamodb.ts';
import { ServiceUnavailableError } from '#lib/errors.ts';

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type TransactItem = TransactItems[number];

/** Which items' conditions failed, by position in the transaction. */
export type FailedConditions = boolean[];

/**
 * A cancelled transaction: which conditions failed, and for an item written with
 * `ReturnValuesOnConditionCheckFailure: 'ALL_OLD'` whose condition failed, the item as it was.
 */
export type Cancellation = { failed: FailedConditions; items: (Record<string, unknown> | undefined)[] };

/**
 * Many stores by one owner at once all touch the owner's counter, so conflicts come in bursts. Full-jitter
 * backoff capped at 250 ms spreads them out; the worst case (about 2 s of sleep) stays far below the timeout.
 */
const MAX_CONFLICT_ATTEMPTS = 12;
const BACKOFF_BASE_MS = 10;
const BACKOFF_CAP_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs a transaction. Returns null when it committed, or which conditions failed when it was cancelled.
 * Conflicts with concurrent transactions on the same items (e.g. the owner's counter) are retried with
 * jittered backoff; the SDK does not retry them because they are not throttling.
 */
export async function transactWrite(db: Db, items: TransactItems): Promise<FailedConditions | null> {
  return (await transactWriteItems(db, items))?.failed ?? null;
}

/** `transactWrite`, with the items a failed condition returned. */
export async function transactWriteItems(db: Db, items: TransactItems): Promise<Cancellation | null> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.client.send(new TransactWriteCommand({ TransactItems: items }));
      return null;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const reasons = error.CancellationReasons ?? [];
      const codes = reasons.map((reason) => reason.Code ?? 'None');
      if (codes.includes('ConditionalCheckFailed')) {
        // The document client does not unmarshall errors: the returned items are in DynamoDB's own JSON.
        const returned = reasons.map((reason) => (reason.Item ? unmarshall(reason.Item) : undefined));
        return { failed: codes.map((code) => code === 'ConditionalCheckFailed'), items: returned };
      }
      const retryable = codes.some((code) => code === 'TransactionConflict' || code === 'ThrottlingError');
      if (!retryable) throw error;
      if (attempt >= MAX_CONFLICT_ATTEMPTS) throw new ServiceUnavailableError();
      await sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
    }
  }
}
