/** The per-owner quota (MAX_ITEMS_PER_OWNER), set low for this file's gateway. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { config } from '#test/support/database.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';
import { countBy, expectConsistent, expectErrorContract } from './helpers.ts';

const QUOTA = 5;
const settings = {
  TABLE_NAME: config.tableName,
  DYNAMODB_ENDPOINT: config.dynamodbEndpoint,
  AWS_REGION: config.region,
  CURSOR_SECRET: config.cursorSecret,
  EDGE_HOSTNAME: config.edgeHostname,
  MAX_ITEMS_PER_OWNER: String(QUOTA),
};
const quotaConfig = loadConfig(settings);

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway({ config: quotaConfig, db: createDb(quotaConfig) });
});
afterAll(() => gateway.close());

const full = (kind: string) => {
  const message = `You have reached the maximum of ${QUOTA} ${kind}s for this account.`;
  return { message, errors: { name: [message] }, status: 422 };
};

async function fill(client: Client, count: number) {
  for (let index = 0; index < count; index++) {
    expect((await client.post('/api/v1/spaces', { name: `Filled ${index}` })).status).toBe(201);
  }
}

describe('per-owner quota', () => {
  it('is read from MAX_ITEMS_PER_OWNER, and defaults to 10,000', () => {
    expect(quotaConfig.maxItemsPerOwner).toBe(QUOTA);
    expect(loadConfig({ ...settings, MAX_ITEMS_PER_OWNER: undefined }).maxItemsPerOwner).toBe(10_000);
  });

  it('one store over the quota → 422 with a clear message; per kind; freed by a delete', async () => {
    // Prepare
    const client = await newClient(gateway);
    await fill(client, QUOTA);
    // Act
    const over = await client.post('/api/v1/spaces', { name: 'One too many' });
    const domain = await client.post('/api/v1/domains', { name: `quota-${client.owner.slice(-8)}.example.com` });
    const first = (await client.get('/api/v1/spaces', { sort: 'asc' })).body.data[0].id;
    await client.delete(`/api/v1/spaces/${first}`);
    const afterDelete = await client.post('/api/v1/spaces', { name: 'One too many' });
    // Assess
    expectErrorContract(over, 422);
    expect(over.body).toEqual(full('space'));
    expect(domain.status).toBe(201);
    expect(afterDelete.status).toBe(201);
    expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(QUOTA);
    await expectConsistent(client.owner, { maxItems: QUOTA, domainNames: [domain.body.data.name] });
  });

  it('renaming or updating at the quota is not a store, and is allowed', async () => {
    // Prepare
    const client = await newClient(gateway);
    await fill(client, QUOTA);
    const id = (await client.get('/api/v1/spaces')).body.data[0].id;
    // Act
    const renamed = await client.patch(`/api/v1/spaces/${id}`, { name: 'Renamed at quota', color: '4' });
    // Assess
    expect(renamed.status).toBe(200);
    await expectConsistent(client.owner, { maxItems: QUOTA });
  });

  it.each([
    ['from empty, 20 parallel stores', 0, 20],
    ['two below the quota, 10 parallel stores', QUOTA - 2, 10],
  ])('%s: exactly up to the quota succeed, never more', async (_, existing, parallel) => {
    // Prepare
    const client = await newClient(gateway);
    await fill(client, existing);
    // Act
    const replies = await Promise.all(
      Array.from({ length: parallel }, (_, index) => client.post('/api/v1/spaces', { name: `Racer ${index}` })),
    );
    // Assess
    expect(countBy(replies.map((reply) => reply.status))).toEqual({
      201: QUOTA - existing,
      422: parallel - (QUOTA - existing),
    });
    for (const reply of replies.filter((r) => r.status === 422)) expect(reply.body).toEqual(full('space'));
    expect((await client.get('/api/v1/spaces')).body.meta.total).toBe(QUOTA);
    await expectConsistent(client.owner, { maxItems: QUOTA });
  });

  it('parallel domain stores by one owner at the boundary never exceed the quota', async () => {
    // Prepare
    const client = await newClient(gateway);
    const names = Array.from({ length: 12 }, (_, index) => `q${index}-${client.owner.slice(-8)}.example.com`);
    // Act
    const replies = await Promise.all(names.map((name) => client.post('/api/v1/domains', { name })));
    // Assess
    expect(countBy(replies.map((reply) => reply.status))).toEqual({ 201: QUOTA, 422: 12 - QUOTA });
    for (const reply of replies.filter((r) => r.status === 422)) expect(reply.body).toEqual(full('domain'));
    // The refused names were not taken: another owner can store them.
    const other = await newClient(gateway);
    const refused = names.filter((_, index) => replies[index]?.status === 422);
    expect((await other.post('/api/v1/domains', { name: refused[0] as string })).status).toBe(201);
    await expectConsistent([client.owner, other.owner], { maxItems: QUOTA, domainNames: names });
  });
});
