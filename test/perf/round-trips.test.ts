/**
 * Pins the DynamoDB calls each operation makes (counted with SDK middleware on the shared client) to the
 * design's minimum, so that an extra read or a lost parallelism fails the build. The reasons are in
 * `bench/handlers.ts` (designTargets) and docs/performance.md.
 */
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DynamoRecorder } from '#infra/local/dynamodb-recorder.ts';
import {
  type ApiHandler,
  type AuthorizerHandler,
  directAuthorizerEvent,
  directEvent,
  followLink,
  lambdaContext,
  loadFunction,
} from '#infra/local/lambda.ts';
import { createApiKey, rotateApiKey } from '#lib/auth/data/key-admin.ts';
import type { RequestKey } from '#lib/auth/rules/request-key.ts';
import { authorizerHandler as authorizerName } from '#lib/routes.ts';
import { storeWebhook } from '#lib/webhooks/data/webhooks.ts';
import { fanOut } from '#lib/webhooks/dispatch.ts';
import { config, db } from '#test/support/database.ts';

const owner = `owner-${randomUUID()}`;
const recorder = new DynamoRecorder();
let detach: () => void;
let key: string;

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read as the API documents them
type Observed = { status: number; body: any; commands: string[]; roundTrips: number; scanned: number };

/** Invokes a handler with a gateway event and reports what it asked of DynamoDB. */
async function invoke(
  handler: string,
  method: string,
  url: string,
  form?: Record<string, string>,
  as = owner,
  headers: Record<string, string> = {},
): Promise<Observed> {
  const run = await loadFunction<ApiHandler>(handler, config, db);
  const event = directEvent({ method, url, owner: as, headers, ...(form ? { form } : {}) });
  recorder.reset();
  const result: APIGatewayProxyResult = await run(event, lambdaContext(handler));
  return {
    status: result.statusCode,
    body: result.body === '' ? undefined : JSON.parse(result.body),
    commands: recorder.commands(),
    roundTrips: recorder.rounds,
    scanned: recorder.scanned(),
  };
}

/** Space names are at most 32 characters. */
const unique = () => randomUUID().slice(0, 8);

const storeSpace = (name: string) => invoke('spaces/store', 'POST', '/api/v1/spaces', { name, color: '2' });
const storeDomain = (name: string) => invoke('domains/store', 'POST', '/api/v1/domains', { name });

beforeAll(async () => {
  ({ key } = await createApiKey(db, owner, 'round trips'));
  detach = recorder.attach(db.client.middlewareStack as never);
});
afterAll(() => detach());

describe('DynamoDB round trips per operation', () => {
  it('authorizes a key with one GetItem; once an hour, an UpdateItem after it records the key’s use', async () => {
    // Prepare
    const authorize = await loadFunction<AuthorizerHandler>(authorizerName, config, db);
    const run = async () => {
      recorder.reset();
      const result = await authorize(directAuthorizerEvent(key), lambdaContext(authorizerName));
      // The answer waits for the last-use write only so long: under load, let it finish before counting.
      await vi.waitFor(() => expect(recorder.calls).toHaveLength(recorder.rounds));
      return { owner: result.principalId, commands: recorder.commands(), rounds: recorder.rounds };
    };
    // Act
    const first = await run();
    const next = await run();
    // Assess
    expect(first).toEqual({ owner, commands: ['GetItem', 'UpdateItem'], rounds: 2 });
    expect(next).toEqual({ owner, commands: ['GetItem'], rounds: 1 });
  });

  it('stores with the id and the feed head read in parallel, then one transaction (2 round trips)', async () => {
    // Act
    const space = await storeSpace(`Store ${unique()}`);
    const domain = await storeDomain(`store-${randomUUID()}.example.com`);
    // A page's check that it is not on another of the owner's active domains rides in the same transaction
    const withPage = await invoke('domains/store', 'POST', '/api/v1/domains', {
      name: `page-${randomUUID()}.example.com`,
      index_page: 'https://www.example.org/',
    });
    // Assess
    for (const stored of [space, domain, withPage]) {
      expect(stored.status).toBe(201);
      expect(stored.commands.slice().sort()).toEqual(['GetItem', 'TransactWriteItems', 'UpdateItem']);
      expect(stored.roundTrips).toBe(2);
    }
  });

  it('stores with an Idempotency-Key: its record and the feed head, then the id, then one transaction; a replay reads only', async () => {
    // Prepare
    const headers = { 'Idempotency-Key': randomUUID() };
    const form = { name: `Keyed ${unique()}` };
    // Act
    const first = await invoke('spaces/store', 'POST', '/api/v1/spaces', form, owner, headers);
    const replay = await invoke('spaces/store', 'POST', '/api/v1/spaces', form, owner, headers);
    // Assess: the id is taken only once the key is known to be new (its record read in parallel with the feed
    // head's), so a replay takes none, nor writes anything: one round trip more than a store without a key.
    expect(first.status).toBe(201);
    expect(first.commands).toEqual(['GetItem', 'GetItem', 'UpdateItem', 'TransactWriteItems']);
    expect(first.roundTrips).toBe(3);
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    expect(replay.commands).toEqual(['GetItem', 'GetItem']);
    expect(replay.roundTrips).toBe(1);
  });

  it('shows with one GetItem', async () => {
    // Prepare
    const space = await storeSpace(`Show ${unique()}`);
    const domain = await storeDomain(`show-${randomUUID()}.example.com`);
    // Act
    const shownSpace = await invoke('spaces/show', 'GET', `/api/v1/spaces/${space.body.data.id}`);
    const shownDomain = await invoke('domains/show', 'GET', `/api/v1/domains/${domain.body.data.id}`);
    // Assess
    for (const shown of [shownSpace, shownDomain]) {
      expect(shown.status).toBe(200);
      expect(shown.commands).toEqual(['GetItem']);
    }
  });

  it('updates (a rename too) with a read of the item and the feed head in parallel, then one transaction', async () => {
    // Prepare
    const space = await storeSpace(`Update ${unique()}`);
    const domain = await storeDomain(`update-${randomUUID()}.example.com`);
    // Act
    const color = await invoke('spaces/update', 'PATCH', `/api/v1/spaces/${space.body.data.id}`, { color: '5' });
    const sameName = await invoke('spaces/update', 'PUT', `/api/v1/spaces/${space.body.data.id}`, {
      name: space.body.data.name.toUpperCase(),
    });
    const page = await invoke('domains/update', 'PATCH', `/api/v1/domains/${domain.body.data.id}`, {
      index_page: 'https://www.example.org/',
    });
    const renamed = await invoke('spaces/update', 'PATCH', `/api/v1/spaces/${space.body.data.id}`, {
      name: `Renamed ${unique()}`,
    });
    // Assess: a change of case keeps the folded name (the guard stays); a rename moves it in the transaction.
    expect(color.body.data.color).toBe(5);
    expect(sameName.body.data.name).toBe(space.body.data.name.toUpperCase());
    expect(page.body.data.index_page).toBe('https://www.example.org/');
    for (const updated of [color, sameName, page, renamed]) {
      expect(updated.status).toBe(200);
      expect(updated.commands.slice().sort()).toEqual(['GetItem', 'GetItem', 'TransactWriteItems']);
      expect(updated.roundTrips).toBe(2);
    }
  });

  it('deletes with one read of the item and the feed head in parallel, then one transaction', async () => {
    // Prepare
    const space = await storeSpace(`Delete ${unique()}`);
    const domain = await storeDomain(`delete-${randomUUID()}.example.com`);
    // Act
    const spaceGone = await invoke('spaces/destroy', 'DELETE', `/api/v1/spaces/${space.body.data.id}`);
    const domainGone = await invoke('domains/destroy', 'DELETE', `/api/v1/domains/${domain.body.data.id}`);
    // Assess
    for (const gone of [spaceGone, domainGone]) {
      expect(gone.status).toBe(200);
      expect(gone.commands.slice().sort()).toEqual(['GetItem', 'GetItem', 'TransactWriteItems']);
      expect(gone.roundTrips).toBe(2);
    }
  });

  it('shows with If-None-Match in the same one GetItem (304 when unchanged)', async () => {
    // Prepare
    const space = await storeSpace(`Etag ${unique()}`);
    // Act
    const shown = await invoke('spaces/show', 'GET', `/api/v1/spaces/${space.body.data.id}`, undefined, owner, {
      'If-None-Match': '"1"',
    });
    // Assess
    expect(shown.status).toBe(304);
    expect(shown.commands).toEqual(['GetItem']);
  });

  it('reads the change feed with the event sequence, then one Query', async () => {
    // Act
    const page = await invoke('events/list', 'GET', '/api/v1/events?per_page=10');
    // Assess
    expect(page.status).toBe(200);
    expect(page.commands).toEqual(['GetItem', 'Query']);
    expect(page.roundTrips).toBe(2);
    expect(page.body.data.length).toBeGreaterThan(0);
  });

  describe('lists', () => {
    const lister = `lister-${randomUUID()}`;
    const spaces = 30;
    const list = (url: string) =>
      invoke(url.startsWith('/api/v1/domains') ? 'domains/list' : 'spaces/list', 'GET', url, undefined, lister);

    beforeAll(async () => {
      for (let index = 0; index < spaces; index++) {
        const stored = await invoke('spaces/store', 'POST', '/api/v1/spaces', { name: `List ${index}` }, lister);
        expect(stored.status).toBe(201);
      }
    });

    it('reads the first page with a Query and the counter in parallel: one round trip, one page of items', async () => {
      // Act
      const byId = await list('/api/v1/spaces?per_page=10');
      const byName = await list('/api/v1/spaces?per_page=10&sort_by=name&sort=asc');
      const domains = await list('/api/v1/domains');
      // Assess
      for (const page of [byId, byName, domains]) {
        expect(page.status).toBe(200);
        expect(page.commands.slice().sort()).toEqual(['GetItem', 'Query']);
        expect(page.roundTrips).toBe(1);
      }
      expect(byId.body.data).toHaveLength(10);
      expect(byId.body.meta.total).toBe(spaces);
      expect(byId.scanned).toBe(10);
      expect(byName.scanned).toBe(10);
    });

    it('reads a cursor page the same way, without walking the pages before it', async () => {
      // Prepare
      const first = await list('/api/v1/spaces?per_page=10');
      const second = await list(followLink(first.body.links.next));
      // Act
      const third = await list(followLink(second.body.links.next));
      // Assess
      expect(third.status).toBe(200);
      expect(third.body.meta.current_page).toBe(3);
      expect(third.body.data.map((space: { id: number }) => space.id)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
      expect(third.commands.slice().sort()).toEqual(['GetItem', 'Query']);
      expect(third.roundTrips).toBe(1);
      expect(third.scanned).toBe(10);
    });
  });
});

describe('DynamoDB round trips of a fan-out', () => {
  const event = () => ({ id: '000000000001', type: 'space.created', created_at: new Date().toISOString(), data: {} });
  const hooks = async (by: string, key: RequestKey, count: number) => {
    for (let index = 0; index < count; index++) {
      await storeWebhook(
        db,
        by,
        { name: `https://hooks.example.com/${index}`, events: ['space.*'], enabled: true, description: null },
        key,
      );
    }
  };

  it('queries the webhooks, then reads each key line behind them once, whatever the number of its webhooks', async () => {
    // Prepare: five webhooks of one key, one of the old shape (no key); and another owner's, of a rotated key.
    const single = `owner-${randomUUID()}`;
    const one = (await createApiKey(db, single, 'hooks')).record;
    await hooks(single, { lineage: one.prefix, scopes: one.scopes }, 5);
    await hooks(single, { lineage: null, scopes: one.scopes }, 1);
    const rotatedOwner = `owner-${randomUUID()}`;
    const first = (await createApiKey(db, rotatedOwner, 'hooks')).record;
    await hooks(rotatedOwner, { lineage: first.prefix, scopes: first.scopes }, 2);
    await rotateApiKey(db, first.prefix);
    // Act
    recorder.reset();
    const jobs = await fanOut(db, single, event());
    const plain = { commands: recorder.commands(), rounds: recorder.rounds };
    recorder.reset();
    const rotatedJobs = await fanOut(db, rotatedOwner, event());
    const rotated = { commands: recorder.commands(), rounds: recorder.rounds };
    // Assess: the key line's first key's prefix item; a rotated line's newest key's after it.
    expect(jobs).toHaveLength(6);
    expect(plain).toEqual({ commands: ['Query', 'GetItem'], rounds: 2 });
    expect(rotatedJobs).toHaveLength(2);
    expect(rotated).toEqual({ commands: ['Query', 'GetItem', 'GetItem'], rounds: 3 });
  });
});
