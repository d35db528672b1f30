/**
 * A transaction read as a sentence: named parts (`item`, `guard`, `counter`, `sequence`, `event`,
 * `idempotency`…) turned into `TransactWriteItems` in one place, and a cancellation's reasons mapped back to
 * those names. Nothing else indexes a transaction by position.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';
import { again, fullJitter, retrying } from '#lib/platform/retry.ts';

export type TransactPart = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A write's parts by name; an `undefined` part is left out (a claim a request does not make). */
export type Parts = Readonly<Record<string, TransactPart | undefined>>;

/**
 * What became of a transaction: committed; cancelled because named parts' conditions failed (the state it
 * met); or cancelled by a conflict with another transaction in flight on one of its items, or throttling
 * (nothing is known of the state: try again later).
 */
export type TransactionResult =
  | { outcome: 'committed' }
  | { outcome: 'failed'; failed: ReadonlySet<string> }
  | { outcome: 'conflict' };

const RETRYABLE_REASONS = new Set(['TransactionConflict', 'ThrottlingError']);

/** Runs the parts as one transaction. Any other error (validation, network after the SDK's retries) throws. */
export async function transact(db: Db, parts: Parts): Promise<TransactionResult> {
  const named = Object.entries(parts).filter((entry): entry is [string, TransactPart] => entry[1] !== undefined);
  try {
    await db.client.send(new TransactWriteCommand({ TransactItems: named.map(([, part]) => part) }));
    return { outcome: 'committed' };
  } catch (error) {
    if (!(error instanceof TransactionCanceledException)) throw error;
    const codes = (error.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
    const failed = new Set(named.filter((_, at) => codes[at] === 'ConditionalCheckFailed').map(([name]) => name));
    if (failed.size > 0) return { outcome: 'failed', failed };
    if (codes.some((code) => RETRYABLE_REASONS.has(code))) return { outcome: 'conflict' };
    throw error;
  }
}

const CONFLICT_ATTEMPTS = 8;

/**
 * For writes off the request path (the key tool): conflicts are tried again after a short random pause, a few
 * times. Returns null when committed, or the names of the parts whose conditions failed.
 */
export function transactDecided(db: Db, parts: Parts): Promise<ReadonlySet<string> | null> {
  return retrying(
    { attempts: CONFLICT_ATTEMPTS, delayMs: fullJitter(40, 5_120) },
    async () => {
      const result = await transact(db, parts);
      if (result.outcome === 'committed') return null;
      return result.outcome === 'failed' ? result.failed : again;
    },
    () => new Error('The transaction kept conflicting with others in flight'),
  );
}
