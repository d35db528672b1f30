/**
 * Writes a test arranges (items in an old shape, say) as one transaction, retried while DynamoDB (or the
 * faithful harness in front of it) cancels it for a transaction in flight on the same items, as any writer must.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Db } from '#lib/data/dynamodb.ts';

export async function arrangeTransaction(
  db: Db,
  items: NonNullable<TransactWriteCommandInput['TransactItems']>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.client.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const conflict =
        error instanceof TransactionCanceledException &&
        (error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict');
      if (!conflict || attempt === 10) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20));
    }
  }
}
