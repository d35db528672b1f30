/**
 * Transaction conflicts through the real SDK: what DynamoDB answers when a transaction or a single-item write
 * touches an item another transaction has in flight, which DynamoDB Local alone would serialise.
 */
import { TransactionCanceledException, TransactionConflictException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Db } from '#lib/data/dynamodb.ts';
import { harnessed, partition, sleep, tableName } from './setup.ts';

const put = (pk: string, sk: string, value = 1) => ({ Put: { TableName: tableName, Item: { pk, sk, value } } });
const update = (pk: string, sk: string) => ({
  Update: {
    TableName: tableName,
    Key: { pk, sk },
    UpdateExpression: 'SET #v = :v',
    ExpressionAttributeNames: { '#v': 'value' },
    ExpressionAttributeValues: { ':v': 2 },
  },
});
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** Resolves once a transaction holds the item: a TransactGetItems of it is then cancelled (as on DynamoDB). */
async function untilInFlight(db: Db, key: { pk: string; sk: string }) {
  for (const deadline = Date.now() + 2_000; Date.now() < deadline; await sleep(2)) {
    const error = await failure(
      db.client.send(new TransactGetCommand({ TransactItems: [{ Get: { TableName: tableName, Key: key } }] })),
    );
    if (error instanceof TransactionCanceledException) return error;
  }
  throw new Error('the first transaction never was in flight');
}

describe('transaction conflicts', () => {
  it('cancels a transaction that overlaps one in flight, with TransactionConflict at the overlapping position', async () => {
    // Prepare
    const { harness, db } = await harnessed({
      conflicts: { inFlightMs: [1000, 1000], randomRate: 0 },
      visibility: false,
    });
    const pk = partition();
    const first = db.client.send(new TransactWriteCommand({ TransactItems: [put(pk, 'A')] }));
    const getError = await untilInFlight(db, { pk, sk: 'A' });

    // Act
    const error = await failure(
      db.client.send(new TransactWriteCommand({ TransactItems: [put(pk, 'C'), update(pk, 'A'), put(pk, 'D')] })),
    );

    // Assess
    expect(getError).toBeInstanceOf(TransactionCanceledException);
    expect(error).toBeInstanceOf(TransactionCanceledException);
    expect((error as TransactionCanceledException).CancellationReasons).toEqual([
      { Code: 'None' },
      { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' },
      { Code: 'None' },
    ]);
    expect((error as TransactionCanceledException).message).toBe(
      'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict, None]',
    );
    await expect(first).resolves.toBeDefined();
    expect(harness.stats).toMatchObject({
      transactions: 2,
      committed: 1,
      conflictsInjected: 1,
      transactGetConflicts: 1,
    });
  });

  it('commits two concurrent transactions that share no item', async () => {
    // Prepare
    const { harness, db, direct } = await harnessed({
      conflicts: { inFlightMs: [50, 50], randomRate: 0 },
      visibility: false,
    });
    const pk = partition();

    // Act
    const results = await Promise.allSettled([
      db.client.send(new TransactWriteCommand({ TransactItems: [put(pk, 'A'), put(pk, 'B')] })),
      db.client.send(new TransactWriteCommand({ TransactItems: [put(pk, 'C'), put(pk, 'D')] })),
    ]);

    // Assess
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled']);
    for (const sk of ['A', 'B', 'C', 'D']) {
      const { Item } = await direct.client.send(new GetCommand({ TableName: tableName, Key: { pk, sk } }));
      expect(Item, sk).toEqual({ pk, sk, value: 1 });
    }
    expect(harness.stats).toMatchObject({ committed: 2, conflictsInjected: 0 });
  });

  it('cancels every transaction at randomRate 1, at one position, without writing anything', async () => {
    // Prepare
    const { harness, db, direct } = await harnessed({ conflicts: { inFlightMs: [0, 0], randomRate: 1 }, seed: 7 });
    const pk = partition();

    // Act
    const errors = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        failure(
          db.client.send(
            new TransactWriteCommand({ TransactItems: [put(pk, `${n}a`), put(pk, `${n}b`), put(pk, `${n}c`)] }),
          ),
        ),
      ),
    );

    // Assess
    for (const error of errors) {
      expect(error).toBeInstanceOf(TransactionCanceledException);
      const codes = (error as TransactionCanceledException).CancellationReasons?.map((reason) => reason.Code);
      expect(codes?.filter((code) => code === 'TransactionConflict')).toHaveLength(1);
      expect(codes?.filter((code) => code === 'None')).toHaveLength(2);
    }
    const { Item } = await direct.client.send(new GetCommand({ TableName: tableName, Key: { pk, sk: '1a' } }));
    expect(Item).toBeUndefined();
    expect(harness.stats).toMatchObject({ transactions: 5, conflictsRandom: 5, committed: 0 });
  });

  it('refuses a single PutItem on an item in flight with TransactionConflictException, and takes it afterwards', async () => {
    // Prepare
    const { harness, db } = await harnessed({
      conflicts: { inFlightMs: [1000, 1000], randomRate: 0 },
      visibility: false,
    });
    const pk = partition();
    const first = db.client.send(new TransactWriteCommand({ TransactItems: [put(pk, 'A'), put(pk, 'B')] }));
    await untilInFlight(db, { pk, sk: 'B' });

    // Act
    const during = await failure(
      db.client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'B', value: 3 } })),
    );
    await first;
    const after = await failure(
      db.client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'B', value: 3 } })),
    );

    // Assess
    expect(during).toBeInstanceOf(TransactionConflictException);
    expect((during as TransactionConflictException).message).toBe('Transaction is ongoing for the item');
    expect(after).toBeUndefined();
    expect(harness.stats.writeConflicts).toBe(1);
  });
});
