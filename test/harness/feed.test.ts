/**
 * The case the harness exists for: a change feed written as "move SEQ from n to n+1 and put EVENT#n+1" in one
 * transaction, by several writers at once (retrying on conflicts), read by pollers at the same time. Under real
 * DynamoDB's per-item visibility, a reader that continues from the highest id it received steps over an event
 * not yet visible and loses it for good; a reader that stops at the first missing id loses none. DynamoDB Local
 * alone shows every transaction at once, so there both readers would pass.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, TransactGetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Db } from '#lib/data/dynamodb.ts';
import { harnessed, partition, sleep, tableName } from './setup.ts';

const writers = 3;
const eventsPerRound = 20;
const maxRounds = 6;

const eventKey = (pk: string, id: number) => ({ pk, sk: `EVENT#${String(id).padStart(6, '0')}` });

/**
 * One event: reads SEQ, then moves it and puts the event in one transaction; again on any cancellation. SEQ is
 * read with TransactGetItems, which sees the committed state (a GetItem could still be served an older SEQ).
 */
async function append(db: Db, pk: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const { Responses } = await db.client.send(
        new TransactGetCommand({ TransactItems: [{ Get: { TableName: tableName, Key: { pk, sk: 'SEQ' } } }] }),
      );
      const last = Number(Responses?.[0]?.Item?.last);
      await db.client.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: tableName,
                Key: { pk, sk: 'SEQ' },
                UpdateExpression: 'SET #last = :next',
                ConditionExpression: '#last = :last',
                ExpressionAttributeNames: { '#last': 'last' },
                ExpressionAttributeValues: { ':last': last, ':next': last + 1 },
              },
            },
            { Put: { TableName: tableName, Item: { ...eventKey(pk, last + 1), id: last + 1 } } },
          ],
        }),
      );
      return;
    } catch (error) {
      // SEQ moved meanwhile (ConditionalCheckFailed) or a conflict (TransactionConflict): read again and retry.
      if (!(error instanceof TransactionCanceledException) || attempt >= 500) throw error;
      await sleep(2 + (attempt % 5));
    }
  }
}

/**
 * Polls the feed: SEQ.last, then the events after its cursor up to it. `stopAtGap` stops at the first missing id;
 * otherwise it takes all it got and continues from the highest. Returns the ids received, in order.
 */
async function poll(db: Db, pk: string, stopAtGap: boolean, finished: () => boolean): Promise<number[]> {
  const received: number[] = [];
  let cursor = 0;
  const deadline = Date.now() + 20_000;
  while (!(finished() && cursor >= eventsPerRound) && Date.now() < deadline) {
    const { Item } = await db.client.send(
      new GetCommand({ TableName: tableName, Key: { pk, sk: 'SEQ' }, ConsistentRead: true }),
    );
    const last = Number(Item?.last);
    if (last > cursor) {
      const { Items = [] } = await db.client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
          ExpressionAttributeValues: { ':pk': pk, ':from': eventKey(pk, cursor + 1).sk, ':to': eventKey(pk, last).sk },
          ConsistentRead: true,
        }),
      );
      for (const { id } of Items as { id: number }[]) {
        if (stopAtGap && id !== cursor + 1) break;
        received.push(id);
        cursor = Math.max(cursor, id);
      }
    }
    await sleep(4);
  }
  return received;
}

/** One round on a fresh feed: the writers append `eventsPerRound` events while both readers poll. */
async function round(db: Db, direct: Db) {
  const pk = partition();
  await direct.client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'SEQ', last: 0 } }));
  let claimed = 0;
  let writing = true;
  const naive = poll(db, pk, false, () => !writing);
  const careful = poll(db, pk, true, () => !writing);
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (claimed < eventsPerRound) {
        claimed += 1;
        await append(db, pk);
      }
    }),
  );
  writing = false;
  return { naive: await naive, careful: await careful };
}

describe('a change feed under per-item visibility', () => {
  it('loses events for a reader that steps over holes, and none for one that stops at the first missing id', async () => {
    // Prepare: what matters is the visibility skew next to the time between two commits. Through the proxy on a
    // small machine commits come tens of ms apart, so the skew is widened to match (on DynamoDB both are shorter).
    const { harness, db, direct } = await harnessed({
      conflicts: { inFlightMs: [2, 10], randomRate: 0.05 },
      visibility: { maxDelayMs: 400, answer: 'commit' },
      seed: 1,
    });
    const everyId = Array.from({ length: eventsPerRound }, (_, index) => index + 1);
    let naiveMissed = 0;
    let rounds = 0;

    // Act: rounds until the naive reader has lost an event, at most maxRounds.
    while (naiveMissed === 0 && rounds < maxRounds) {
      rounds += 1;
      const { naive, careful } = await round(db, direct);
      naiveMissed += everyId.filter((id) => !naive.includes(id)).length;
      // Assess (each round): the careful reader got every event, once, in order.
      expect(careful, `round ${rounds}: the careful reader`).toEqual(everyId);
    }

    // Assess
    expect(naiveMissed, `events the naive reader lost in ${rounds} round(s)`).toBeGreaterThan(0);
    expect(harness.stats.hiddenReads).toBeGreaterThan(0);
    expect(harness.stats.conflictsInjected + harness.stats.conflictsRandom).toBeGreaterThan(0);
    expect(harness.stats.committed).toBe(rounds * eventsPerRound);
  });
});
