/**
 * Per-item visibility through the real SDK: a committed transaction's items reach non-transactional reads one by
 * one (DynamoDB Local shows them at once), TransactGetItems sees them all or none, and rewritten answers carry a
 * valid CRC32 and length.
 */
import { crc32 } from 'node:zlib';
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Db } from '#lib/data/dynamodb.ts';
import { harnessed, partition, sleep, tableName } from './setup.ts';

type Row = Record<string, unknown>;
const values = (items: Row[] | undefined) => (items ?? []).map((item) => `${item.sk}=${item.value}`);

const queryAll = (db: Db, pk: string, extra: Row = {}) =>
  db.client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ...extra,
    }),
  );

/** Writes sk 1..5 (value 1, index key n<sk>) straight to DynamoDB Local. */
async function seedFive(direct: Db, pk: string) {
  for (const sk of ['1', '2', '3', '4', '5']) {
    await direct.client.send(new PutCommand({ TableName: tableName, Item: { pk, sk, value: 1, lsi1sk: `n${sk}` } }));
  }
}

/** Updates 2 (value 2, index key n9), deletes 3 and puts 6, in one transaction. */
const changeThree = (db: Db, pk: string) =>
  db.client.send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName,
            Key: { pk, sk: '2' },
            UpdateExpression: 'SET #v = :v, lsi1sk = :n',
            ExpressionAttributeNames: { '#v': 'value' },
            ExpressionAttributeValues: { ':v': 2, ':n': 'n9' },
          },
        },
        { Delete: { TableName: tableName, Key: { pk, sk: '3' } } },
        { Put: { TableName: tableName, Item: { pk, sk: '6', value: 1, lsi1sk: 'n6' } } },
      ],
    }),
  );

/** One transaction of two items: A (stored at 1) set to 2, and B put at 1. */
const updateAAndPutB = (pk: string) =>
  new TransactWriteCommand({
    TransactItems: [
      {
        Update: {
          TableName: tableName,
          Key: { pk, sk: 'A' },
          UpdateExpression: 'SET #v = :v',
          ExpressionAttributeNames: { '#v': 'value' },
          ExpressionAttributeValues: { ':v': 2 },
        },
      },
      { Put: { TableName: tableName, Item: { pk, sk: 'B', value: 1 } } },
    ],
  });

describe('per-item visibility', () => {
  it('shows one item of a committed transaction before the other, all after maxDelayMs, and TransactGetItems all at once', async () => {
    // Prepare: seed 53 draws A's reveal within the first 10% of maxDelayMs and B's within the last 10%.
    const maxDelayMs = 500;
    const { harness, db } = await harnessed({
      conflicts: { inFlightMs: [0, 0], randomRate: 0 },
      visibility: { maxDelayMs, answer: 'commit' },
      seed: 53,
    });
    const pk = partition();
    await db.client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'A', value: 1 } }));
    const single: string[] = [];
    const queried: string[] = [];
    const atomic: string[] = [];

    // Act: poll every few ms from before the transaction until maxDelayMs after it committed.
    const transaction = db.client.send(updateAAndPutB(pk)).then(() => Date.now());
    let committedAt: number | undefined;
    void transaction.then((at) => {
      committedAt = at;
    });
    while (committedAt === undefined || Date.now() < committedAt + maxDelayMs + 20) {
      const [a, b, page, both] = await Promise.all([
        db.client.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'A' }, ConsistentRead: true })),
        db.client.send(new GetCommand({ TableName: tableName, Key: { pk, sk: 'B' }, ConsistentRead: true })),
        queryAll(db, pk, { ConsistentRead: true }),
        db.client
          .send(
            new TransactGetCommand({
              TransactItems: [
                { Get: { TableName: tableName, Key: { pk, sk: 'A' } } },
                { Get: { TableName: tableName, Key: { pk, sk: 'B' } } },
              ],
            }),
          )
          .then(
            ({ Responses }) => values(Responses?.map((response) => response.Item ?? { sk: '-', value: '' })).join(' '),
            () => 'cancelled',
          ),
      ]);
      single.push(`A=${a.Item?.value} B=${b.Item?.value}`);
      queried.push(values(page.Items).join(' '));
      atomic.push(both);
      await sleep(3);
    }

    // Assess
    expect(single[0]).toBe('A=1 B=undefined');
    expect(single).toContain('A=2 B=undefined');
    expect(single).not.toContain('A=1 B=1');
    expect(single.at(-1)).toBe('A=2 B=1');
    expect(queried).toContain('A=2');
    expect(queried.at(-1)).toBe('A=2 B=1');
    // Before the commit: the old pair, or cancelled while in flight; after it: the new pair, never a mix.
    const atomicStates = [...new Set(atomic)].filter((each) => each !== 'cancelled' && each !== 'A=1 -=');
    expect(atomicStates).toEqual(['A=2 B=1']);
    expect(harness.stats.hiddenReads).toBeGreaterThan(0);
  });

  it('by default answers the writer once every item is visible: it reads its own writes, a reader meanwhile a mix', async () => {
    // Prepare: the writer's answer waits for the last reveal; a reader polls while it waits.
    const maxDelayMs = 300;
    const { harness, db } = await harnessed({
      conflicts: { inFlightMs: [0, 0], randomRate: 0 },
      visibility: { maxDelayMs },
      seed: 53,
    });
    const pk = partition();
    await db.client.send(new PutCommand({ TableName: tableName, Item: { pk, sk: 'A', value: 1 } }));
    const seen: string[] = [];
    let answered = false;
    // Act
    const started = Date.now();
    const transaction = db.client.send(updateAAndPutB(pk)).then(() => {
      answered = true;
    });
    while (!answered) {
      const page = await queryAll(db, pk, { ConsistentRead: true });
      seen.push(values(page.Items).join(' '));
      await sleep(3);
    }
    await transaction;
    const tookMs = Date.now() - started;
    const after = await queryAll(db, pk, { ConsistentRead: true });
    // Assess: a reader saw A changed and B not yet; the writer, once answered, sees both.
    expect(seen).toContain('A=2');
    expect(values(after.Items).join(' ')).toBe('A=2 B=1');
    expect(tookMs).toBeLessThanOrEqual(maxDelayMs + 200);
    expect(harness.stats.hiddenReads).toBeGreaterThan(0);
  });

  it('serves Query, Scan and BatchGetItem the before-images while hidden: updated, deleted and new items', async () => {
    // Prepare: with seed 19 and a minute of delay, nothing of the transaction is revealed during the test.
    const { harness, db, direct } = await harnessed({
      conflicts: { inFlightMs: [0, 0], randomRate: 0 },
      visibility: { maxDelayMs: 60_000, answer: 'commit' },
      seed: 19,
    });
    const pk = partition();
    await seedFive(direct, pk);

    // Act
    await changeThree(db, pk);
    const all = await queryAll(db, pk);
    const first = await queryAll(db, pk, { Limit: 2 });
    const second = await queryAll(db, pk, { Limit: 2, ExclusiveStartKey: first.LastEvaluatedKey });
    const third = await queryAll(db, pk, { Limit: 2, ExclusiveStartKey: second.LastEvaluatedKey });
    const backwards = await db.client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :low AND :high',
        ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
        ExpressionAttributeValues: { ':pk': pk, ':low': '2', ':high': '4' },
        ScanIndexForward: false,
      }),
    );
    const byIndex = await queryAll(db, pk, { IndexName: 'byName' });
    const projected = await queryAll(db, pk, {
      ProjectionExpression: '#v',
      ExpressionAttributeNames: { '#v': 'value' },
    });
    const scanned = await db.client.send(new ScanCommand({ TableName: tableName }));
    const batch = await db.client.send(
      new BatchGetCommand({ RequestItems: { [tableName]: { Keys: ['2', '3', '6'].map((sk) => ({ pk, sk })) } } }),
    );
    const atomic = await db.client.send(
      new TransactGetCommand({
        TransactItems: ['2', '3', '6'].map((sk) => ({ Get: { TableName: tableName, Key: { pk, sk } } })),
      }),
    );
    harness.configure({ visibility: false });
    const revealed = await queryAll(db, pk);

    // Assess
    const before = ['1=1', '2=1', '3=1', '4=1', '5=1'];
    expect(values(all.Items)).toEqual(before);
    expect(all.Count).toBe(5);
    expect([first, second, third].flatMap((page) => values(page.Items))).toEqual(before);
    expect(values(backwards.Items)).toEqual(['4=1', '3=1', '2=1']);
    expect(byIndex.Items?.map((item) => item.lsi1sk)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5']);
    expect(projected.Items).toEqual([1, 1, 1, 1, 1].map((value) => ({ value })));
    expect(values(scanned.Items?.filter((item) => item.pk === pk))).toEqual(before);
    expect(values(batch.Responses?.[tableName]).sort()).toEqual(['2=1', '3=1']);
    expect(values(atomic.Responses?.map((response) => response.Item ?? { sk: '-', value: '' }))).toEqual([
      '2=2',
      '-=',
      '6=1',
    ]);
    expect(values(revealed.Items)).toEqual(['1=1', '2=2', '4=1', '5=1', '6=1']);
    expect(harness.stats.hiddenReads).toBe(9);
  });

  it('sends a rewritten answer with its own x-amz-crc32 and content-length', async () => {
    // Prepare
    const { harness, db, direct } = await harnessed({ visibility: { maxDelayMs: 60_000, answer: 'commit' }, seed: 19 });
    const pk = partition();
    await seedFive(direct, pk);
    await changeThree(db, pk);

    // Act
    const answer = await fetch(harness.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.GetItem',
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20250101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: JSON.stringify({ TableName: tableName, Key: { pk: { S: pk }, sk: { S: '3' } } }),
    });
    const body = Buffer.from(await answer.arrayBuffer());

    // Assess: the target has no item 3 any more; the harness served its before-image, and signed that body.
    expect(JSON.parse(body.toString()).Item.sk).toEqual({ S: '3' });
    expect(answer.headers.get('x-amz-crc32')).toBe(String(crc32(body)));
    expect(answer.headers.get('content-length')).toBe(String(body.byteLength));
    expect(harness.stats.hiddenReads).toBe(1);
  });
});
