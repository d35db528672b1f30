import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/dynamodb.ts';
import { ServiceUnavailableError } from '#lib/errors.ts';

export type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type TransactItem = TransactItems[number];

/** Which items' conditions failed, by position in the transaction. */
export type FailedConditions = boolean[];

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
  for (let attempt = 1; ; attempt++) {
    try {
      await db.client.send(new TransactWriteCommand({ TransactItems: items }));
      return null;
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
      if (codes.includes('ConditionalCheckFailed')) return codes.map((code) => code === 'ConditionalCheckFailed');
      const retryable = codes.some((code) => code === 'TransactionConflict' || code === 'ThrottlingError');
      if (!retryable) throw error;
      if (attempt >= MAX_CONFLICT_ATTEMPTS) throw new ServiceUnavailableError();
      await sleep(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));
    }
  }
}
