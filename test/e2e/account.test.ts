/**
 * Plans and the account (issue 35): `GET /api/v1/account` for keys the key tool made, of every scope; a plan the
 * key tool sets holding from the next store; a move below usage; usage against the owner's real items after
 * concurrent stores and deletes; owners without a plan; the rate-limit fields on every authorized answer.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';
import type { Gateway } from '#infra/local/gateway.ts';
import { plans } from '#infra/plans.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { eventSequenceKey, ownerPartition } from '#lib/data/keys.ts';
import { scopes } from '#lib/kinds.ts';
import { config } from '#test/support/database.ts';
import { type Client, clientFor, startTestGateway } from '#test/support/http.ts';
import { keyClient, newClient, UNAUTHENTICATED } from './helpers.ts';

const run = promisify(execFile);
const RATE = 5_000;

/** The stage's plans, as the stack passes them (dev's, which `npm start` and the key tool use too). */
const planned = { ...config, plans: plans.dev };
const db = createDb(planned);
let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway({ config: planned, db, rateLimitPerMinute: RATE });
});
afterAll(() => gateway.close());

/** Runs the key tool as an operator would, against this file's table on the test DynamoDB Local. */
async function keys(...args: string[]) {
  const table = ['--table', config.tableName, '--endpoint', config.dynamodbEndpoint as string];
  const { stdout } = await run('npx', ['tsx', 'scripts/keys.ts', ...args, ...table], {
    cwd: projectRoot,
    env: { ...process.env, AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' },
    timeout: 60_000,
  });
  return stdout.trimEnd().split('\n');
}

const standard = {
  domains: { used: 0, limit: 10_000 },
  spaces: { used: 0, limit: 10_000 },
  webhooks: { used: 0, limit: 10 },
};

const full = (limit: number, kind: string, plan: string) => {
  const message = `You have reached the maximum of ${limit} ${kind}s for your plan (${plan}).`;
  return { message, errors: { name: [message] }, status: 422 };
};

/** The owner's items of a kind as the table holds them (what the counters must equal). */
async function countItems(owner: string, prefix: string): Promise<number> {
  const { Items = [] } = await db.client.send(
    new QueryCommand({
      TableName: config.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': ownerPartition(owner), ':prefix': prefix },
      ConsistentRead: true,
    }),
  );
  return Items.length;
}

describe('GET /api/v1/account', () => {
  it("answers every key the key tool makes, whatever its scopes: plan, usage, the key's scopes, expiry, rate", async () => {
    // Prepare: one key per scope, and one that expires, all of one owner.
    const owner = `account-${randomUUID()}`;
    const made = await Promise.all([
      ...scopes.map((scope) => keys('create', '--owner', owner, '--scopes', scope)),
      keys('create', '--owner', owner, '--scopes', 'spaces:read', '--expires-in', '30d'),
    ]);
    const clients = made.map((lines) => keyClient(gateway, lines.at(-1) as string));
    // Act
    const answers = await Promise.all(clients.map((client) => client.get('/api/v1/account')));
    // Assess
    for (const [index, answer] of answers.entries()) {
      expect(answer.status).toBe(200);
      expect(answer.body.data).toMatchObject({ plan: 'standard', usage: standard });
      expect(answer.body.data.key.rate_limit_per_minute).toBe(RATE);
      expect(answer.headers.get('etag')).toMatch(/^"a[0-9a-f]{16}"$/);
      if (index < scopes.length) {
        expect(answer.body.data.key).toEqual({
          scopes: [scopes[index]],
          expires_at: null,
          rate_limit_per_minute: RATE,
        });
      }
    }
    const expiring = answers.at(-1)?.body.data.key;
    expect(expiring.scopes).toEqual(['spaces:read']);
    expect(Date.parse(expiring.expires_at) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
  }, 120_000);

  it('answers HEAD without a body, and 304 while nothing changed; a store changes the ETag', async () => {
    // Prepare
    const client = await newClient(gateway);
    const first = await client.get('/api/v1/account');
    const etag = first.headers.get('etag') as string;
    // Act
    // Unchecked: a HEAD answer has no JSON body to check.
    const head = await clientFor(gateway, client.key).request('HEAD', '/api/v1/account');
    const unchanged = await client.request('GET', '/api/v1/account', { headers: { 'If-None-Match': etag } });
    await client.post('/api/v1/spaces', { name: 'Counted' });
    const changed = await client.request('GET', '/api/v1/account', { headers: { 'If-None-Match': etag } });
    // Assess
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('etag')).toBe(etag);
    expect(unchanged.status).toBe(304);
    expect(unchanged.text).toBe('');
    expect(changed.status).toBe(200);
    expect(changed.body.data.usage.spaces.used).toBe(1);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });

  it('refuses a request without a valid key (401), as every route', async () => {
    // Act
    const anonymous = await keyClient(gateway, 'dsk_not-a-key').get('/api/v1/account');
    // Assess
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(UNAUTHENTICATED);
  });
});

describe('plans, set with the key tool', () => {
  it('hold from the next store; a move below usage keeps the items and refuses new ones with the plan in the message', async () => {
    // Prepare: four spaces on the default plan.
    const client = await newClient(gateway);
    for (const name of ['One', 'Two', 'Three', 'Four']) {
      expect((await client.post('/api/v1/spaces', { name })).status).toBe(201);
    }
    // Act: down to starter (3 spaces).
    const set = await keys('plan', '--owner', client.owner, '--set', 'starter');
    const account = await client.get('/api/v1/account');
    const refused = await client.post('/api/v1/spaces', { name: 'Five' });
    const kept = await client.get('/api/v1/spaces');
    // Assess
    expect(set[0]).toBe(
      `Owner ${client.owner}: plan standard → starter (account.plan_changed in its feed). It holds from the next store.`,
    );
    expect(set).toContain('spaces\t4\t3\tover the limit: new ones refused');
    expect(account.body.data.plan).toBe('starter');
    expect(account.body.data.usage).toEqual({
      domains: { used: 0, limit: 3 },
      spaces: { used: 4, limit: 3 },
      webhooks: { used: 0, limit: 1 },
    });
    expect(refused.body).toEqual(full(3, 'space', 'starter'));
    expect(kept.body.meta.total).toBe(4);

    // Act: below the limit again, one store fits; then up to pro.
    const ids = kept.body.data.map((space: { id: number }) => space.id);
    await client.delete(`/api/v1/spaces/${ids[0]}`);
    await client.delete(`/api/v1/spaces/${ids[1]}`);
    const fits = await client.post('/api/v1/spaces', { name: 'Five' });
    const over = await client.post('/api/v1/spaces', { name: 'Six' });
    await keys('plan', '--owner', client.owner, '--set', 'pro');
    const upgraded = await client.post('/api/v1/spaces', { name: 'Six' });
    // Assess
    expect(fits.status).toBe(201);
    expect(over.body).toEqual(full(3, 'space', 'starter'));
    expect(upgraded.status).toBe(201);
    const events = (await client.get('/api/v1/events', { per_page: 100 })).body.data;
    const changes = events.filter((event: { type: string }) => event.type === 'account.plan_changed');
    expect(changes.map((event: { data: unknown }) => event.data)).toEqual([
      { plan: 'starter', previous_plan: 'standard' },
      { plan: 'pro', previous_plan: 'starter' },
    ]);
  });

  it('shows the plan, and refuses an unknown one naming the known plans; setting the same plan changes nothing', async () => {
    // Prepare
    const client = await newClient(gateway);
    // Act
    const shown = await keys('plan', '--owner', client.owner);
    const unknown = await keys('plan', '--owner', client.owner, '--set', 'gold').then(
      () => '',
      (error: { code: number; stderr: string }) => `${error.code} ${error.stderr.trim().split('\n').at(-1)}`,
    );
    const same = await keys('plan', '--owner', client.owner, '--set', 'standard');
    // Assess
    expect(shown).toEqual([
      `Owner ${client.owner}: plan standard (the default: none set).`,
      'kind\tused\tlimit',
      'domains\t0\t10000',
      'spaces\t0\t10000',
      'webhooks\t0\t10',
      'Plans of this stage: starter, standard, pro (default standard).',
    ]);
    expect(unknown).toBe('2 Unknown plan "gold". The plans are: starter, standard, pro.');
    expect(same[0]).toBe(`Owner ${client.owner} is on standard already: nothing changed.`);
    expect((await client.get('/api/v1/events')).body.data).toEqual([]);
  });

  it('an owner from before plans (no plan on its feed head), or on a plan the stage no longer has, is on the default', async () => {
    // Prepare: an owner with items and a feed head without `plan`; another whose head names a plan now gone.
    const old = await newClient(gateway);
    await old.post('/api/v1/spaces', { name: 'From before plans' });
    const gone = await newClient(gateway);
    await gone.post('/api/v1/spaces', { name: 'On a plan since removed' });
    await db.client.send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: eventSequenceKey(gone.owner),
        UpdateExpression: 'SET #plan = :plan',
        ExpressionAttributeNames: { '#plan': 'plan' },
        ExpressionAttributeValues: { ':plan': 'legacy-gold' },
      }),
    );
    // Act
    const answers = await Promise.all([old, gone].map((client) => client.get('/api/v1/account')));
    const stored = await gone.post('/api/v1/spaces', { name: 'Still stores' });
    // Assess
    for (const answer of answers) {
      expect(answer.body.data.plan).toBe('standard');
      expect(answer.body.data.usage.spaces).toEqual({ used: 1, limit: 10_000 });
    }
    expect(stored.status).toBe(201);
  });
});

describe('usage', () => {
  it("equals the owner's items after concurrent stores and deletes, of two kinds", async () => {
    // Prepare
    const client: Client = await newClient(gateway);
    const tag = client.owner.slice(-8);
    // Act: 16 spaces and 8 domains stored at once, then half of each deleted while 6 more spaces are stored.
    const stored = await Promise.all([
      ...Array.from({ length: 16 }, (_, index) => client.post('/api/v1/spaces', { name: `Racer ${index}` })),
      ...Array.from({ length: 8 }, (_, index) =>
        client.post('/api/v1/domains', { name: `u${index}-${tag}.example.com` }),
      ),
    ]);
    const ids = stored.map((reply) => ({ id: reply.body.data.id, domain: 'verification' in reply.body.data }));
    await Promise.all([
      ...ids
        .filter((_, index) => index % 2 === 0)
        .map(({ id, domain }) => client.delete(`/api/v1/${domain ? 'domains' : 'spaces'}/${id}`)),
      ...Array.from({ length: 6 }, (_, index) => client.post('/api/v1/spaces', { name: `Late ${index}` })),
    ]);
    const account = await client.get('/api/v1/account');
    // Assess
    expect(stored.every((reply) => reply.status === 201)).toBe(true);
    const spaces = await countItems(client.owner, 'SPACE#');
    const domains = await countItems(client.owner, 'DOMAIN#');
    expect({ spaces, domains }).toEqual({ spaces: 8 + 6, domains: 4 });
    expect(account.body.data.usage.spaces.used).toBe(spaces);
    expect(account.body.data.usage.domains.used).toBe(domains);
    expect(account.body.data.usage.webhooks.used).toBe(0);
  });
});

describe('rate-limit fields (draft-ietf-httpapi-ratelimit-headers-10)', () => {
  it("are on every authorized answer, success or error: the policy, and locally what is left of the key's window", async () => {
    // Prepare
    const client = await newClient(gateway);
    // Act
    const first = await client.get('/api/v1/spaces');
    const second = await client.get('/api/v1/account');
    const missing = await client.get('/api/v1/spaces/999999');
    const refused = await keyClient(gateway, 'dsk_not-a-key').get('/api/v1/spaces');
    // Assess
    for (const reply of [first, second, missing]) {
      expect(reply.headers.get('ratelimit-policy')).toBe(`"per-key";q=${RATE};w=60`);
    }
    expect(missing.status).toBe(404);
    const left = [first, second, missing].map((reply) => {
      const match = /^"per-key";r=(\d+);t=(\d+)$/.exec(reply.headers.get('ratelimit') ?? '');
      expect(match, reply.headers.get('ratelimit') ?? 'no RateLimit').not.toBeNull();
      expect(Number(match?.[2])).toBeGreaterThanOrEqual(1);
      expect(Number(match?.[2])).toBeLessThanOrEqual(60);
      return Number(match?.[1]);
    });
    expect(left).toEqual([RATE - 1, RATE - 2, RATE - 3]);
    // A browser may read them.
    expect(first.headers.get('access-control-expose-headers')).toContain('RateLimit-Policy, RateLimit');
    // A key the authorizer refused passed no policy.
    expect(refused.status).toBe(401);
    expect(refused.headers.get('ratelimit-policy')).toBeNull();
  });
});
