/**
 * The change feed and idempotency keys under concurrency and injected faults: a poller that runs while
 * writers commit misses nothing and sees nothing twice; the feed is exactly the history of the committed
 * writes (one event per successful write, none for a failed one, replayable into the current state), also
 * when the writers are separate processes racing at DynamoDB; a store whose answer is lost is retried with
 * its key into the one item it made. The consistency checker runs after every test.
 */
import { randomUUID } from 'node:crypto';
import { InternalServerError, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { WRITE_BUDGET_MS } from '#lib/data/commit.ts';
import { createDb, type Db, dynamoClientConfig } from '#lib/data/dynamodb.ts';
import { ItemNotFound, NameTaken, WriteContended } from '#lib/data/errors.ts';
import { type FeedPosition, listEvents } from '#lib/data/events.ts';
import { presentEvent } from '#lib/feed/present.ts';
import { presentSpace } from '#lib/spaces/api/present.ts';
import { destroySpace, listSpaces, storeSpace, updateSpace } from '#lib/spaces/data/spaces.ts';
import { config, db, harness, stage } from '#test/support/database.ts';
import { FAITHFUL } from '#test/support/dynamodb-harness.ts';
import { type Client, clientFor, newClient, type Reply, startTestGateway } from '#test/support/http.ts';
import { type Seeded, seeded } from '#test/support/seed.ts';
import { expectOneEventPerWrite, expectPolledAll, expectValidHistory, type FeedEvent, type Write } from './feed.ts';
import { faultSuite, injectFault, serviceError, touches, type WireCall } from './helpers.ts';

let gateway: Gateway;
const suite = faultSuite();

beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(async () => {
  await gateway.close();
});

const serverError = () => serviceError(InternalServerError, 500);

async function owner(): Promise<Client> {
  const client = await newClient(gateway);
  suite.checked.owners.push(client.owner);
  return client;
}

/** The whole list of a collection, following the pages. */
async function listAll(client: Client, collection: string): Promise<unknown[]> {
  const items: unknown[] = [];
  let reply = await client.get(`/api/v1/${collection}`, { per_page: 100 });
  for (;;) {
    items.push(...reply.body.data);
    if (!reply.body.links.next) return items;
    reply = await client.get(reply.body.links.next.slice(reply.body.links.next.indexOf('/api/v1')));
  }
}

/** The whole feed from the start. */
async function feedOf(client: Client): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  let reply = await client.get('/api/v1/events', { per_page: 100 });
  for (;;) {
    events.push(...reply.body.data);
    if (!reply.body.meta.has_more) return events;
    reply = await client.get(reply.body.links.next.slice(reply.body.links.next.indexOf('/api/v1')));
  }
}

type Poll<Cursor> = (after: Cursor | undefined) => Promise<{ events: FeedEvent[]; more: boolean; next: Cursor }>;

/**
 * Polls the feed from where the last page said to continue, as a client would, until `done()` was true before
 * a poll that found nothing more: every write had been answered, so everything it wrote is in the feed.
 */
async function poll<Cursor>(next: Poll<Cursor>, done: () => boolean): Promise<FeedEvent[]> {
  const polled: FeedEvent[] = [];
  let after: Cursor | undefined;
  for (;;) {
    const finished = done();
    const page = await next(after);
    polled.push(...page.events);
    after = page.next;
    if (finished && !page.more) return polled;
    if (!page.more) await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A poller over HTTP: follows `links.next`. */
const httpPoller =
  (client: Client): Poll<string> =>
  async (after) => {
    const reply = await client.get(after ?? '/api/v1/events?per_page=25');
    expect(reply.status).toBe(200);
    const next = reply.body.links.next as string;
    return {
      events: reply.body.data as FeedEvent[],
      more: reply.body.meta.has_more as boolean,
      next: next.slice(next.indexOf('/api/v1')),
    };
  };

const START: FeedPosition = { epoch: undefined, id: 0, since: 0 };

/** A poller on the data layer, as the feed's handler reads it. */
const dataPoller =
  (db: Db, owner: string, perPage = 25): Poll<FeedPosition> =>
  async (after) => {
    const page = await listEvents(db, owner, { after: after ?? START, perPage, types: [] });
    return {
      events: page.events.map((event) => presentEvent(event, stage)) as FeedEvent[],
      more: page.more,
      next: page.next,
    };
  };

/** The whole feed from the start, on the data layer. */
async function dataFeed(db: Db, owner: string): Promise<FeedEvent[]> {
  return poll(dataPoller(db, owner, 100), () => true);
}

/** A client that also keeps every answer it gets (to check the headers of each 503). */
const recording = (client: Client, answers: Reply[]): Client =>
  new Proxy(client, {
    get(target, name: keyof Client) {
      const value = target[name];
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const reply = await (value as (...given: unknown[]) => Promise<Reply>)(...args);
        answers.push(reply);
        return reply;
      };
    },
  });

const SPACE_NAMES = ['Red', 'Green', 'Blue', 'Cyan', 'Magenta', 'Yellow', 'Black', 'White'];

type Known = { kind: 'space' | 'domain'; id: number }[];

/**
 * One random write over HTTP on the owner's spaces and domains (names from small pools, so some collide), its
 * draws from the test's seeded generator. Targets are the items in `known` (the random writes' own stores).
 */
async function randomWrite(client: Client, domains: string[], known: Known, draw: Seeded) {
  const record = (write: Omit<Write, 'status'>, reply: Reply): Write => ({ ...write, status: reply.status });
  const roll = draw.random();
  const target = known.length > 0 ? draw.pick(known) : undefined;
  if (roll < 0.3 || !target) {
    const reply = await client.post('/api/v1/spaces', {
      name: draw.pick(SPACE_NAMES),
      color: String(1 + (known.length % 6)),
    });
    if (reply.status === 201) known.push({ kind: 'space', id: reply.body.data.id });
    return record({ kind: 'space', action: 'created', data: reply.body?.data }, reply);
  }
  if (roll < 0.45) {
    const reply = await client.post('/api/v1/domains', { name: draw.pick(domains) });
    if (reply.status === 201) known.push({ kind: 'domain', id: reply.body.data.id });
    return record({ kind: 'domain', action: 'created', data: reply.body?.data }, reply);
  }
  const path = `/api/v1/${target.kind}s/${target.id}`;
  if (roll < 0.8) {
    const form: Record<string, string> =
      target.kind === 'domain'
        ? { index_page: `https://www.example.org/${draw.integer(0, 2 ** 30).toString(36)}` }
        : draw.random() < 0.5
          ? { color: String(draw.integer(1, 6)) }
          : { name: draw.pick(SPACE_NAMES).toUpperCase() };
    const reply = await client.patch(path, form);
    return record({ kind: target.kind, action: 'updated', data: reply.body?.data }, reply);
  }
  const reply = await client.delete(path);
  return record({ kind: target.kind, action: 'deleted', id: target.id }, reply);
}

/** A store over HTTP, recorded as a write. */
async function storeWrite(client: Client, name: string): Promise<Write> {
  const reply = await client.post('/api/v1/spaces', { name, color: '1' });
  return { kind: 'space', action: 'created', status: reply.status, data: reply.body?.data };
}

/**
 * `workers` clients of one owner writing in parallel while a poller polls. Each worker first stores a space of
 * the one name they all try (exactly one wins: the others answer 422), then `count` random writes.
 */
async function writeWhilePolling(client: Client, workers: number, count: number, draw: Seeded) {
  const domains = Array.from({ length: 4 }, (_, index) => `feed-${index}-${randomUUID().slice(0, 8)}.example.com`);
  suite.checked.domains.push(...domains);
  const known: Known = [];
  const writes: Write[] = [];
  const contested: Write[] = [];
  let writing = true;
  const poller = poll(httpPoller(client), () => !writing);
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const first = await storeWrite(client, 'Contested');
      contested.push(first);
      writes.push(first);
      for (let index = 0; index < count; index++) writes.push(await randomWrite(client, domains, known, draw));
    }),
  );
  writing = false;
  return { writes, contested, polled: await poller };
}

async function expectFeedIsHistory(client: Client, writes: Write[], polled: FeedEvent[]) {
  const feed = await feedOf(client);
  expectPolledAll(polled, feed);
  expectOneEventPerWrite(writes, feed);
  expectValidHistory(feed, { space: await listAll(client, 'spaces'), domain: await listAll(client, 'domains') });
  return feed;
}

const statusesOf = (writes: Write[]) => writes.map((write) => write.status);

describe('a poller while writers commit', () => {
  it('misses nothing, sees nothing twice, and the feed is the exact history of the writes', async () => {
    // Prepare
    const draw = seeded('a poller while writers commit');
    const client = await owner();
    // Act: 8 writers, 1 + 12 writes each, on one owner; a poller polls all along.
    const { writes, contested, polled } = await writeWhilePolling(client, 8, 12, draw);
    // Assess: the one name all eight stored has exactly one winner; the feed is the history of what answered 2xx.
    expect(
      statusesOf(writes).filter((status) => ![200, 201, 404, 422].includes(status)),
      draw.label('statuses'),
    ).toEqual([]);
    expect(statusesOf(contested).sort(), draw.label('the contested stores')).toEqual([201, ...Array(7).fill(422)]);
    await expectFeedIsHistory(client, writes, polled);
  });

  it('under injected DynamoDB failures: failed writes (503) leave no event, the others are exactly in the feed', async () => {
    // Prepare: a space per worker to change while the faults last (its writes are never faulted: 200 by
    // construction), and a name whose every transaction fails (503 by construction); besides, 40% of the
    // owner's other transaction attempts and id allocations fail before DynamoDB sees them.
    const draw = seeded('under injected DynamoDB failures');
    const client = await owner();
    const WORKERS = 6;
    const steady = await Promise.all(
      Array.from({ length: WORKERS }, (_, index) => storeWrite(client, `Steady ${index}`)),
    );
    expect(statusesOf(steady)).toEqual(Array(WORKERS).fill(201));
    const mentions = (call: WireCall, text: string) => JSON.stringify(call.body).includes(text);
    suite.injection = injectFault({
      when: (call) =>
        (call.operation === 'TransactWriteItems' || call.operation === 'UpdateItem') && touches(client.owner)(call),
      before: (_, call) => {
        if (mentions(call, 'Steady')) return undefined;
        if (mentions(call, 'Doomed')) return serverError();
        return draw.random() < 0.4 ? serverError() : undefined;
      },
    });
    const domains = Array.from({ length: 4 }, (_, index) => `faults-${index}-${randomUUID().slice(0, 8)}.example.com`);
    suite.checked.domains.push(...domains);
    const known: Known = [];
    const writes: Write[] = [...steady];
    const changed: Write[] = [];
    const doomed: Write[] = [];
    let writing = true;
    const poller = poll(httpPoller(client), () => !writing);
    // Act: each worker changes its steady space, stores the doomed name, and makes 10 random writes.
    await Promise.all(
      steady.map(async (space, index) => {
        const reply = await client.patch(`/api/v1/spaces/${space.data?.id}`, { color: '2' });
        changed.push({ kind: 'space', action: 'updated', status: reply.status, data: reply.body?.data });
        doomed.push(await storeWrite(client, `Doomed ${index}`));
        for (let count = 0; count < 10; count++) writes.push(await randomWrite(client, domains, known, draw));
      }),
    );
    writing = false;
    const polled = await poller;
    suite.injection.remove();
    writes.push(...changed, ...doomed);
    // Assess
    expect(statusesOf(changed), draw.label('the steady changes')).toEqual(Array(WORKERS).fill(200));
    expect(statusesOf(doomed), draw.label('the doomed stores')).toEqual(Array(WORKERS).fill(503));
    expect(
      statusesOf(writes).filter((status) => ![200, 201, 404, 422, 503].includes(status)),
      draw.label('statuses'),
    ).toEqual([]);
    await expectFeedIsHistory(client, writes, polled);
  });
});

describe('20 writers of one owner, each its own process, through the DynamoDB-faithful harness', () => {
  const WRITERS = 20;
  const gateways: Gateway[] = [];
  const clients: Db[] = [];
  beforeAll(async () => {
    // Each writer is a Lambda process of its own: its own client, so nothing queues in process and every race
    // is DynamoDB's (the harness cancels overlapping transactions and shows committed items one by one).
    for (let index = 0; index < WRITERS; index++) {
      const own = createDb(config);
      clients.push(own);
      gateways.push(await startTestGateway({ db: own }));
    }
  });
  afterAll(async () => {
    for (const each of gateways) await each.close();
    for (const each of clients) each.client.destroy();
  });

  it('every committed write is in the feed exactly once, in order; a concurrent poller misses none; no 500; every 503 has Retry-After', async () => {
    // Prepare
    if (!harness) throw new Error('This suite runs through the harness (vitest.config.ts: TEST_DYNAMODB_HARNESS)');
    const draw = seeded('20 writers of one owner');
    const before = { ...harness.stats };
    const client = await owner();
    const writers = gateways.map((each) => clientFor(each, client.key, client.owner));
    const domains = Array.from({ length: 4 }, (_, index) => `race-${index}-${randomUUID().slice(0, 8)}.example.com`);
    suite.checked.domains.push(...domains);
    const known: Known = [];
    const writes: Write[] = [];
    const own: Write[] = [];
    const answers: Reply[] = [];
    let writing = true;
    const poller = poll(httpPoller(client), () => !writing);
    // Act: 20 writers at once, each on its own process: a store of a name of its own, then 5 random writes.
    await Promise.all(
      writers.map(async (writer, index) => {
        const first = await storeWrite(recording(writer, answers), `Writer ${index}`);
        own.push(first);
        writes.push(first);
        for (let count = 0; count < 5; count++) {
          writes.push(await randomWrite(recording(writer, answers), domains, known, draw));
        }
      }),
    );
    writing = false;
    const polled = await poller;
    // Assess: every write went through the harness; a name of its own is stored unless the write ran out of
    // its budget (503); the feed is the history of the writes, its ids 1..n.
    const stats = harness.stats;
    console.info(
      `harness: ${stats.transactions - before.transactions} transactions, ` +
        `${stats.conflictsInjected - before.conflictsInjected} cancelled, ${stats.hiddenReads - before.hiddenReads} hidden reads`,
    );
    expect(
      statusesOf(writes).filter((status) => ![200, 201, 404, 422, 503].includes(status)),
      draw.label('statuses'),
    ).toEqual([]);
    expect(
      statusesOf(own).filter((status) => status !== 201 && status !== 503),
      draw.label('own stores'),
    ).toEqual([]);
    for (const reply of answers.filter((answer) => answer.status === 503)) {
      expect(reply.headers.get('retry-after')).toBe('1');
    }
    const feed = await expectFeedIsHistory(client, writes, polled);
    expect(feed.map((event) => Number(event.id))).toEqual(feed.map((_, index) => index + 1));
    expect(stats.transactions - before.transactions, 'transactions through the harness').toBeGreaterThanOrEqual(
      feed.length,
    );
  });
});

describe('writers in separate processes, racing at DynamoDB', () => {
  const processes: Db[] = [];
  beforeAll(() => {
    // Each its own client: nothing is queued in process, every race is DynamoDB's (lib/data/commit.ts).
    for (let index = 0; index < 5; index++) processes.push(createDb(config));
  });
  afterAll(() => {
    for (const db of processes) db.client.destroy();
  });

  it('commit one at a time, a poller misses nothing, and the feed is the history of the writes', async () => {
    // Prepare: the writes' draws come from a seeded generator (printed: TEST_SEED replays them).
    const draw = seeded('writers in separate processes');
    const id = `owner-${randomUUID()}`;
    suite.checked.owners.push(id);
    const [reader, ...writers] = processes as [Db, ...Db[]];
    const known: number[] = [];
    const writes: Write[] = [];
    let writing = true;
    const poller = poll(dataPoller(reader, id), () => !writing);
    const attempt = async (write: Omit<Write, 'status'>, run: () => Promise<Record<string, unknown> | undefined>) => {
      try {
        const data = await run();
        writes.push({ ...write, ...(data ? { data } : {}), status: write.action === 'created' ? 201 : 200 });
      } catch (error) {
        if (error instanceof NameTaken) writes.push({ ...write, status: 422 });
        else if (error instanceof ItemNotFound) writes.push({ ...write, status: 404 });
        else if (error instanceof WriteContended) writes.push({ ...write, status: 503 });
        else throw error;
      }
    };
    const store = (db: Db, name: string) =>
      attempt({ kind: 'space', action: 'created' }, async () => {
        const item = (await storeSpace(db, id, { name, color: 1 })).result;
        known.push(item.id);
        return presentSpace(item);
      });
    // Act: 4 processes on the same owner, all at once: each a store of a name of its own, then 14 random writes.
    await Promise.all(
      writers.map(async (db, index) => {
        await store(db, `Process ${index}`);
        for (let count = 0; count < 14; count++) {
          const target = known.length > 0 ? draw.pick(known) : undefined;
          const roll = draw.random();
          if (roll < 0.4 || target === undefined) {
            await store(db, draw.pick(SPACE_NAMES));
          } else if (roll < 0.85) {
            const changes = draw.random() < 0.5 ? { color: draw.integer(1, 6) } : { name: draw.pick(SPACE_NAMES) };
            await attempt({ kind: 'space', action: 'updated' }, async () =>
              presentSpace((await updateSpace(db, id, target, changes)).result),
            );
          } else {
            await attempt({ kind: 'space', action: 'deleted', id: target }, async () => {
              await destroySpace(db, id, target);
              return undefined;
            });
          }
        }
      }),
    );
    writing = false;
    const polled = await poller;
    // Assess: the feed holds exactly what the writes that succeeded answered, in an order that replays.
    const feed = await dataFeed(reader, id);
    expectPolledAll(polled, feed);
    expectOneEventPerWrite(writes, feed);
    const spaces = await listSpaces(reader, id, { search: '', sortBy: 'id', sort: 'asc', perPage: 100, page: 1 });
    expectValidHistory(feed, { space: spaces.records.map(presentSpace), domain: [] });
    expect(writes, draw.label('writes')).toHaveLength(writers.length * 15);
  });
});

describe('a change whose feed head moved between its read and its commit', () => {
  it('reads again and commits after the change that moved it, with the next id: a poller that saw that one still gets it', async () => {
    // Prepare: while this process's store is on its way to DynamoDB, another process stores and commits, and
    // a poller reads the feed.
    const id = `owner-${randomUUID()}`;
    suite.checked.owners.push(id);
    const other = createDb(config);
    const reader = createDb(config);
    const read = async (after: number) =>
      (await listEvents(reader, id, { after: { ...START, id: after }, perPage: 10, types: [] })).events.map((event) =>
        presentEvent(event, stage),
      );
    const polled: FeedEvent[] = [];
    suite.injection = injectFault({
      when: touches(id, 'TransactWriteItems'),
      meanwhile: (attempt) =>
        attempt === 1
          ? (async () => {
              await storeSpace(other, id, { name: 'Overtaking', color: 1 });
              polled.push(...((await read(0)) as FeedEvent[]));
            })()
          : undefined,
    });
    // Act
    const stored = (await storeSpace(db, id, { name: 'Overtaken', color: 1 })).result;
    suite.injection.remove();
    const after = Number(polled.at(-1)?.id);
    const next = (await read(after)) as FeedEvent[];
    other.client.destroy();
    reader.client.destroy();
    // Assess
    expect(polled.map((event) => event.data.name)).toEqual(['Overtaking']);
    expect(next.map((event) => event.data)).toEqual([presentSpace(stored)]);
    expect(Number(next[0]?.id)).toBe(after + 1);
  });

  it('that needed what the other change did (a name it freed) comes after it in the feed', async () => {
    // Prepare: a rename to "Red" that read the feed head before the delete of the space called Red, which
    // commits first; the rename then succeeds, and its event must follow the delete's.
    const id = `owner-${randomUUID()}`;
    suite.checked.owners.push(id);
    const other = createDb(config);
    const red = (await storeSpace(db, id, { name: 'Red', color: 1 })).result;
    const blue = (await storeSpace(db, id, { name: 'Blue', color: 1 })).result;
    suite.injection = injectFault({
      when: touches(id, 'TransactWriteItems'),
      meanwhile: (attempt) => (attempt === 1 ? destroySpace(other, id, red.id) : undefined),
    });
    // Act
    const renamed = (await updateSpace(db, id, blue.id, { name: 'Red' })).result;
    suite.injection.remove();
    other.client.destroy();
    // Assess
    const page = await listEvents(db, id, { after: START, perPage: 10, types: [] });
    expect(page.events.map((event) => event.type)).toEqual([
      'space.created',
      'space.created',
      'space.deleted',
      'space.updated',
    ]);
    expectValidHistory(page.events.map((event) => presentEvent(event, stage)) as FeedEvent[], {
      space: [presentSpace(renamed)],
      domain: [],
    });
  });
});

/**
 * For suites whose faults depend on which attempt fails (every answer lost on purpose, or attempt 1 lost and
 * attempt 2 cancelled): the harness's random cancellations off. Otherwise a random cancellation shifts the
 * attempts, and the write path recovers a lost commit from its record (tested on its own) or commits afresh.
 */
function withoutRandomCancellations() {
  beforeEach(() => harness?.configure({ conflicts: FAITHFUL.conflicts && { ...FAITHFUL.conflicts, randomRate: 0 } }));
  afterEach(() => harness?.configure({ conflicts: FAITHFUL.conflicts }));
}

describe('a store whose answer is lost', () => {
  withoutRandomCancellations();
  it('is a 503; retried with its Idempotency-Key it answers the one item it made, marked as a replay', async () => {
    // Prepare: DynamoDB commits the transaction, and every answer to it is lost on the way back.
    const client = await owner();
    const key = randomUUID();
    const send = () =>
      client.request('POST', '/api/v1/spaces', {
        form: { name: 'Dropped', color: '2' },
        headers: { 'Idempotency-Key': key },
      });
    suite.injection = injectFault({ when: touches(client.owner, 'TransactWriteItems'), after: serverError });
    // Act
    const lost = await send();
    suite.injection.remove();
    const retried = await send();
    // Assess
    expect(lost.status).toBe(503);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const shown = await client.get(`/api/v1/spaces/${retried.body.data.id}`);
    expect(retried.body).toEqual(shown.body);
    expect(retried.headers.get('etag')).toBe(shown.headers.get('etag'));
    expect(await listAll(client, 'spaces')).toEqual([shown.body.data]);
    expect((await feedOf(client)).map((event) => [event.type, event.data])).toEqual([
      ['space.created', shown.body.data],
    ]);
  });

  it('without a key the retry is a new request, which answers 422 (the name is taken by the lost one)', async () => {
    // Prepare
    const client = await owner();
    suite.injection = injectFault({ when: touches(client.owner, 'TransactWriteItems'), after: serverError });
    // Act
    const lost = await client.post('/api/v1/spaces', { name: 'Keyless' });
    suite.injection.remove();
    const retried = await client.post('/api/v1/spaces', { name: 'Keyless' });
    // Assess
    expect(lost.status).toBe(503);
    expect(retried.status).toBe(422);
    expect(await listAll(client, 'spaces')).toHaveLength(1);
  });

  it('under lost answers at random, clients that retry with their keys get one item and one event per key', async () => {
    // Prepare: for about 30% of the keys (drawn, and at least one), every answer to the first request's
    // transaction is lost after DynamoDB committed it (each of the SDK's attempts: the request answers 503);
    // the retries of those keys are answered.
    const draw = seeded('under lost answers at random');
    const client = await owner();
    const keys = Array.from({ length: 24 }, () => randomUUID());
    const lost = new Set(keys.filter((_, index) => index === 0 || draw.random() < 0.3));
    const losses = new Map<string, number>();
    suite.injection = injectFault({
      when: touches(client.owner, 'TransactWriteItems'),
      after: (_, call) => {
        const key = keys.find((each) => JSON.stringify(call.body).includes(`IDEMPOTENCY#${each}`));
        if (key === undefined || !lost.has(key) || (losses.get(key) ?? 0) >= dynamoClientConfig.maxAttempts) return;
        losses.set(key, (losses.get(key) ?? 0) + 1);
        return serverError();
      },
    });
    // Act: each client retries on 503 with the same key, as a client should.
    const attempts: number[] = [];
    const answers = await Promise.all(
      keys.map(async (key, index) => {
        for (let attempt = 1; attempt <= 10; attempt++) {
          const reply = await client.request('POST', '/api/v1/spaces', {
            form: { name: `Key ${index}` },
            headers: { 'Idempotency-Key': key },
          });
          if (reply.status !== 503) {
            attempts[index] = attempt;
            return reply;
          }
        }
        throw new Error(`Key ${index}: still 503 after 10 attempts`);
      }),
    );
    suite.injection.remove();
    // Assess: a key whose answer was lost took a retry, which replayed it; every key made one item, one event.
    expect(answers.map((reply) => reply.status)).toEqual(Array(keys.length).fill(201));
    expect(
      keys.map((key, index) => (lost.has(key) ? attempts[index] : 1)),
      draw.label('attempts'),
    ).toEqual(keys.map((key) => (lost.has(key) ? 2 : 1)));
    expect(answers.filter((reply) => reply.headers.get('idempotent-replayed') === 'true')).toHaveLength(lost.size);
    const spaces = await listAll(client, 'spaces');
    expect(spaces).toHaveLength(keys.length);
    const feed = await feedOf(client);
    expect(feed.map((event) => event.type)).toEqual(Array(keys.length).fill('space.created'));
    for (const reply of answers) expect(spaces).toContainEqual(reply.body.data);
  });
});

describe('an update or a delete whose answer is lost', () => {
  withoutRandomCancellations();
  const changes = {
    PATCH: { form: { color: '5' }, status: 200, type: 'space.updated' },
    PUT: { form: { name: 'Renamed', color: '3' }, status: 200, type: 'space.updated' },
    DELETE: { form: undefined, status: 200, type: 'space.deleted' },
  } as const;

  it.each(Object.keys(changes) as (keyof typeof changes)[])(
    '%s retried with its Idempotency-Key answers the first answer again and writes nothing more',
    async (method) => {
      // Prepare: a space; then every answer to the owner's transactions is lost after DynamoDB committed them.
      const client = await owner();
      const stored = await client.post('/api/v1/spaces', { name: 'Target', color: '1' });
      const path = `/api/v1/spaces/${stored.body.data.id}`;
      const { form, status, type } = changes[method];
      const key = randomUUID();
      const send = (body: Record<string, string> | undefined = form) =>
        client.request(method, path, { ...(body ? { form: body } : {}), headers: { 'Idempotency-Key': key } });
      suite.injection = injectFault({ when: touches(client.owner, 'TransactWriteItems'), after: serverError });
      // Act
      const lost = await send();
      suite.injection.remove();
      const retried = await send();
      const again = await send();
      const reused = await send({ color: '6' });
      // Assess: the first attempt committed; its retries replay it (a delete: 200, not 404).
      expect(lost.status).toBe(503);
      expect([retried.status, again.status]).toEqual([status, status]);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body).toEqual(retried.body);
      expect(reused.status).toBe(422);
      const feed = await feedOf(client);
      expect(feed.map((event) => event.type)).toEqual(['space.created', type]);
      if (method === 'DELETE') {
        expect((await client.get(path)).status).toBe(404);
      } else {
        const shown = await client.get(path);
        expect(retried.body).toEqual(shown.body);
        expect(retried.headers.get('etag')).toBe(shown.headers.get('etag'));
        expect(shown.headers.get('etag')).toBe('"2"');
      }
    },
  );
});

describe('a keyed write whose commit was lost and whose retry was cancelled', () => {
  // The faults below number the attempts: a random cancellation of the first would shift them.
  withoutRandomCancellations();
  it('answers what its first attempt did, from the key’s record, not a 404 from the state it left', async () => {
    // Prepare: the first transaction commits and its answer is lost (500); the SDK sends it again, and DynamoDB
    // cancels that one for a transaction in flight; the write path then reads again and finds the item gone.
    const client = await owner();
    const stored = await client.post('/api/v1/spaces', { name: 'Deleted once', color: '1' });
    const path = `/api/v1/spaces/${stored.body.data.id}`;
    suite.injection = injectFault({
      when: touches(client.owner, 'TransactWriteItems'),
      before: (attempt) =>
        attempt === 2
          ? new TransactionCanceledException({
              message:
                'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
              $metadata: { httpStatusCode: 400 },
              CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
            })
          : undefined,
      after: (attempt) => (attempt === 1 ? serverError() : undefined),
    });
    // Act
    const reply = await client.request('DELETE', path, { headers: { 'Idempotency-Key': randomUUID() } });
    suite.injection.remove();
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.headers.get('idempotent-replayed')).toBe('true');
    expect(reply.body).toEqual({ id: stored.body.data.id, object: 'space', deleted: true, status: 200 });
    expect((await feedOf(client)).map((event) => event.type)).toEqual(['space.created', 'space.deleted']);
  });
});

describe('a write that keeps losing to concurrent transactions', () => {
  it('answers 503 with Retry-After within its budget, having written nothing', async () => {
    // Prepare: every transaction of the owner is cancelled as DynamoDB cancels one that meets another in flight.
    const client = await owner();
    const stored = await client.post('/api/v1/spaces', { name: 'Contended', color: '1' });
    const attemptsAt: number[] = [];
    const injection = injectFault({
      when: touches(client.owner, 'TransactWriteItems'),
      before: () => {
        attemptsAt.push(Date.now());
        return new TransactionCanceledException({
          message:
            'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
          $metadata: { httpStatusCode: 400 },
          CancellationReasons: [{ Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' }],
        });
      },
    });
    suite.injection = injection;
    // Act
    const started = Date.now();
    const reply = await client.patch(`/api/v1/spaces/${stored.body.data.id}`, { color: '2' });
    suite.injection.remove();
    // Assess: retried, and given up once the budget was spent: the last attempt began within it, so its
    // transaction came at most one attempt (its reads) after the budget's end (how many fit depends on speed).
    expect(reply.status).toBe(503);
    expect(reply.headers.get('retry-after')).toBe('1');
    expect(reply.body).toEqual({ message: 'Service temporarily unavailable. Please retry.', status: 503 });
    expect(injection.attempts).toBeGreaterThan(1);
    const longestAttempt = Math.max(...attemptsAt.slice(1).map((at, index) => at - (attemptsAt[index] as number)));
    expect((attemptsAt.at(-1) as number) - started).toBeLessThan(WRITE_BUDGET_MS + longestAttempt);
    expect((await client.get(`/api/v1/spaces/${stored.body.data.id}`)).body.data.color).toBe(1);
    expect((await feedOf(client)).map((event) => event.type)).toEqual(['space.created']);
  });
});
