/**
 * Section 4, scale: one owner each with 10, 1,000 and 100,000 spaces, seeded once with BatchWriteItem in the
 * data module's item layout (item + name guard per space, then the counter and the id sequence) and reused
 * from the persisted DynamoDB Local. Measures list requests through the list handler: latency and the items
 * DynamoDB read (ScannedCount) per request.
 * Needs DYNAMODB_ENDPOINT, TABLE_NAME (the persisted table) and CURSOR_SECRET.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { guardItem } from '#lib/data/collection.ts';
import { createDb, dynamoClientConfig } from '#lib/data/dynamodb.ts';
import * as keys from '#lib/data/keys.ts';
import { collectionRange } from '#lib/data/listing.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { type ApiHandler, apiEvent, DynamoRecorder, followLink, lambdaContext, loadFunction } from './lambda.ts';
import { progress, quick, round, type Summary, summarize, writeResult } from './support.ts';

/** Collection sizes, smallest first; `BENCH_SCALE_SIZES=10,1000` overrides. */
const sizes = (process.env.BENCH_SCALE_SIZES ?? (quick ? '10,1000' : '10,1000,100000')).split(',').map(Number);
const repeats = quick ? 3 : 7;
/** Search and offset walk the collection: fewer repeats at the largest size keep the run to minutes. */
const walkRepeats = quick ? 2 : 5;
const CURSOR_PAGE = 50;
/** Per DynamoDB attempt, in place of the deployed 2 s (see `main`). */
const SCALE_REQUEST_TIMEOUT_MS = 10_000;
const OFFSET_PAGE = 50;

export const scaleOwner = (size: number) => `bench-scale-${size}`;

const WORDS = ['Harbor', 'Atlas', 'Meadow', 'Quartz', 'Ember', 'Lumen', 'Cobalt', 'Willow', 'Nimbus', 'Sable'];
/** Zero-padded so that each number occurs in exactly one name: searching for it matches one space. */
const number = (id: number) => String(id).padStart(6, '0');
/** Names do not follow ids, so the by-name order differs from the id order. */
const spaceName = (id: number) => `${WORDS[(id * 7) % WORDS.length]} ${number(id)}`;

export type ScaleMeasure = {
  size: number;
  operation: string;
  latencyMs: Summary;
  /** Items DynamoDB read for the request (Query ScannedCount, summed; the counter GetItem is not included). */
  itemsRead: number;
  calls: number;
  roundTrips: number;
  returned: number;
};

export type ScaleSection = {
  sizes: number[];
  repeats: number;
  walkRepeats: number;
  perPage: number;
  /** The bound per DynamoDB attempt in this section (absent in results from before it was raised: 2,000). */
  requestTimeoutMs?: number;
  seededNow: number[];
  measures: ScaleMeasure[];
};

async function main() {
  const config = loadConfig(process.env);
  // The deployed client's settings but a longer bound per attempt: on DynamoDB Local one Query that filters
  // 100,000 items takes about 1.6 s, so the deployed 2 s bound would turn some of the largest searches into
  // 503s (a 503 would be measured as a failure, not a latency).
  const listDb = createDb(config, {
    requestHandler: { ...dynamoClientConfig.requestHandler, requestTimeout: SCALE_REQUEST_TIMEOUT_MS },
  });
  const { client: db, tableName } = listDb;

  // Seeding has its own client: a batch write to a busy DynamoDB Local may take longer than the API's timeouts.
  const seeder = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: config.dynamodbEndpoint,
      region: 'local',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
      maxAttempts: 10,
      requestHandler: { requestTimeout: 120_000 },
    }),
  );
  const SEED_WORKERS = 4;
  // BatchWriteItem takes up to 25 items: 12 spaces of two items each.
  const SPACES_PER_BATCH = 12;

  async function seeded(owner: string, size: number): Promise<boolean> {
    const read = (key: Record<string, string>) =>
      seeder.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    const [counter, sequence] = await Promise.all([
      read(keys.counterKey(owner, 'space')),
      read(keys.sequenceKey(owner, 'space')),
    ]);
    return counter.Item?.total === size && sequence.Item?.last === size;
  }

  async function batchWrite(items: Record<string, unknown>[]) {
    let requests = items.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      const { UnprocessedItems } = await seeder.send(
        new BatchWriteCommand({ RequestItems: { [tableName]: requests } }),
      );
      requests = (UnprocessedItems?.[tableName] ?? []) as typeof requests;
      if (requests.length > 0) await new Promise((resolve) => setTimeout(resolve, 10 * 2 ** Math.min(attempt, 6)));
    }
  }

  /**
   * Where an interrupted seed can resume: batches complete out of order, but never more than the workers'
   * batches below the highest id written. Puts are idempotent, so that window is simply written again.
   */
  async function resumeFrom(owner: string): Promise<number> {
    const { Items } = await seeder.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: {
          ':pk': keys.ownerPartition(owner),
          ':from': collectionRange('space').from,
          ':to': collectionRange('space').to,
        },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const highest = (Items?.[0]?.id as number | undefined) ?? 0;
    return Math.max(1, highest - SEED_WORKERS * SPACES_PER_BATCH);
  }

  /** Every space and its name guard, then the counter and the sequence: those last mark the seed complete. */
  async function seed(owner: string, size: number) {
    const created = Date.parse('2025-01-01T00:00:00.000Z');
    const itemsOf = (id: number) => {
      const name = spaceName(id);
      const fold = keys.foldName(name);
      const at = new Date(created + id * 1000).toISOString();
      return [
        {
          ...keys.itemKey(owner, 'space', id),
          lsi1sk: keys.nameSortKey('space', fold, id),
          kind: 'space',
          id,
          name,
          fold,
          color: (id % 6) + 1,
          createdAt: at,
          updatedAt: at,
        },
        guardItem(keys.spaceNameGuardKey(owner, fold), owner, 'space', id),
      ];
    };
    let next = await resumeFrom(owner);
    if (next > 1) progress(`  resuming at space ${next}`);
    let written = next - 1;
    let reported = 0;
    const started = performance.now();
    const worker = async () => {
      while (next <= size) {
        const from = next;
        next = Math.min(size + 1, next + SPACES_PER_BATCH);
        const items = [];
        for (let id = from; id < next; id++) items.push(...itemsOf(id));
        await batchWrite(items);
        written += items.length / 2;
        if (written - reported >= 10_000) {
          reported = written;
          progress(`  seeded ${written}/${size} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
        }
      }
    };
    await Promise.all(Array.from({ length: SEED_WORKERS }, worker));
    await batchWrite([
      { ...keys.counterKey(owner, 'space'), total: size },
      { ...keys.sequenceKey(owner, 'space'), last: size },
    ]);
  }

  const seededNow: number[] = [];
  for (const size of sizes) {
    const owner = scaleOwner(size);
    if (await seeded(owner, size)) continue;
    progress(`scale: seeding ${size} spaces for ${owner} (once; kept in .bench-data)`);
    await seed(owner, size);
    seededNow.push(size);
  }
  seeder.destroy();
  if (process.env.BENCH_SEED_ONLY === '1') {
    writeResult({ seededNow });
    db.destroy();
    return;
  }

  // The list function uses this client, so the recorder sees its calls.
  const list = await loadFunction<ApiHandler>('spaces/list', config, listDb);
  const recorder = new DynamoRecorder();
  const detach = recorder.attach(db.middlewareStack as never);
  type Page = { ms: number; body: { data: unknown[]; links: { next: string | null }; meta: { total: number } } };
  const request = async (owner: string, url: string): Promise<Page> => {
    recorder.reset();
    const start = performance.now();
    const result: APIGatewayProxyResult = await list(apiEvent({ method: 'GET', url, owner }), lambdaContext('list'));
    const ms = performance.now() - start;
    if (result.statusCode !== 200) throw new Error(`GET ${url}: ${result.statusCode} ${result.body.slice(0, 200)}`);
    return { ms, body: JSON.parse(result.body) };
  };

  type Operation = {
    name: string;
    walks: boolean;
    /** Runs one measured request (after any unmeasured ones it needs); null when the size has no such page. */
    run: (owner: string, size: number) => Promise<Page | null>;
    check: (page: Page, size: number) => boolean;
  };
  const operations: Operation[] = [
    {
      name: 'first page by id',
      walks: false,
      run: (owner) => request(owner, '/api/v1/spaces'),
      check: (page, size) => page.body.data.length === Math.min(10, size),
    },
    {
      name: 'first page by name',
      walks: false,
      run: (owner) => request(owner, '/api/v1/spaces?sort_by=name&sort=asc'),
      check: (page, size) => page.body.data.length === Math.min(10, size),
    },
    {
      name: `page ${CURSOR_PAGE} by cursor`,
      walks: false,
      run: async (owner, size) => {
        if (size < CURSOR_PAGE * 10) return null;
        let page = await request(owner, '/api/v1/spaces');
        for (let n = 2; n <= CURSOR_PAGE; n++) {
          if (!page.body.links.next) throw new Error(`no next link on page ${n - 1}`);
          page = await request(owner, followLink(page.body.links.next));
        }
        return page;
      },
      check: (page) => page.body.data.length === 10,
    },
    {
      name: `page=${OFFSET_PAGE} by offset`,
      walks: true,
      run: (owner) => request(owner, `/api/v1/spaces?page=${OFFSET_PAGE}`),
      check: (page, size) => page.body.data.length === Math.max(0, Math.min(10, size - (OFFSET_PAGE - 1) * 10)),
    },
    {
      name: 'search, one match',
      walks: true,
      run: (owner, size) => request(owner, `/api/v1/spaces?search=${number(Math.ceil(size / 2))}`),
      check: (page) => page.body.data.length === 1 && page.body.meta.total === 1,
    },
  ];

  /**
   * DynamoDB Local's JVM is cold at first: its first walk of 100,000 items can outlast the SDK's 2 s
   * per-attempt timeout (503). Warm-up requests are retried; measured ones never are.
   */
  const warmUp = async (run: () => Promise<Page | null>): Promise<Page | null> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        if (attempt >= 5 || !String(error).includes(': 503 ')) throw error;
      }
    }
  };

  const samples = new Map<
    string,
    { ms: number[]; itemsRead: number; calls: number; roundTrips: number; returned: number }
  >();
  const maxRepeats = Math.max(repeats, walkRepeats);
  // Warm-up, then repeats interleaved over sizes so that background noise spreads over all of them.
  for (let rep = 0; rep <= maxRepeats; rep++) {
    progress(`scale: ${rep === 0 ? 'warm-up' : `repeat ${rep}/${maxRepeats}`}`);
    for (const operation of operations) {
      if (rep > (operation.walks ? walkRepeats : repeats)) continue;
      for (const size of sizes) {
        const run = () => operation.run(scaleOwner(size), size);
        const page = rep === 0 ? await warmUp(run) : await run();
        if (!page) continue;
        if (!operation.check(page, size)) {
          throw new Error(`${operation.name} at ${size}: unexpected page ${JSON.stringify(page.body).slice(0, 300)}`);
        }
        if (rep === 0) continue;
        const key = `${operation.name}|${size}`;
        const entry = samples.get(key) ?? { ms: [], itemsRead: 0, calls: 0, roundTrips: 0, returned: 0 };
        entry.ms.push(page.ms);
        Object.assign(entry, {
          itemsRead: recorder.scanned(),
          calls: recorder.calls.length,
          roundTrips: recorder.rounds,
          returned: page.body.data.length,
        });
        samples.set(key, entry);
      }
    }
  }
  detach();

  const measures: ScaleMeasure[] = [...samples].map(([key, entry]) => {
    const [operation, size] = key.split('|') as [string, string];
    const latency = summarize(entry.ms);
    return {
      size: Number(size),
      operation,
      latencyMs: { ...latency, median: round(latency.median), min: round(latency.min), max: round(latency.max) },
      itemsRead: entry.itemsRead,
      calls: entry.calls,
      roundTrips: entry.roundTrips,
      returned: entry.returned,
    };
  });
  const result: ScaleSection = {
    sizes,
    repeats,
    walkRepeats,
    perPage: 10,
    requestTimeoutMs: SCALE_REQUEST_TIMEOUT_MS,
    seededNow,
    measures,
  };
  writeResult(result);
  db.destroy();
}

await main();
