/**
 * The per-key rate limit over HTTP, as `RATE_LIMIT_PER_MINUTE=5 npm start` runs it: the local gateway answers
 * what the WAF rule answers on AWS (429, the JSON error body, Retry-After) before the authorizer runs, per key
 * whatever the spelling of its `Authorization` header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { generateApiKey } from '#lib/auth/rules/api-key.ts';
import { startTestGateway } from '#test/support/http.ts';
import { keyClient, newClient, sendJson, UNAUTHENTICATED } from './helpers.ts';

const LIMIT = 5;
const TOO_MANY_REQUESTS = { message: 'Too Many Requests.', status: 429 };

let gateway: Gateway;
beforeAll(async () => {
  gateway = await startTestGateway({ rateLimitPerMinute: LIMIT });
});
afterAll(() => gateway.close());

describe('per-key rate limit', () => {
  it('answers the sixth request of a key within a minute 429 JSON with Retry-After, while another key is served', async () => {
    // Prepare
    const busy = await newClient(gateway);
    const other = await newClient(gateway);
    // Act: sequentially, so that the order is the order counted
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) statuses.push((await busy.get('/api/v1/spaces')).status);
    const sixth = await busy.post('/api/v1/spaces', { name: 'Over the limit' });
    const otherKey = await other.get('/api/v1/spaces');
    // Assess
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual(TOO_MANY_REQUESTS);
    const retryAfter = Number(sixth.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`).toBe(true);
    expect(otherKey.status).toBe(200);
    // Assess: the refused request did nothing
    expect((await other.get('/api/v1/spaces')).status).toBe(200);
  });

  it('counts every route and method of a key together', async () => {
    // Prepare
    const client = await newClient(gateway);
    // Act
    const replies = [
      await client.get('/api/v1/spaces'),
      await client.get('/api/v1/domains'),
      await client.get('/api/v1/spaces/1'),
      await client.delete('/api/v1/domains/1'),
      await client.post('/api/v1/spaces', { name: 'Five' }),
      await client.get('/api/v1/domains'),
    ];
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 404, 404, 201, 429]);
  });

  it('counts the key itself, whatever the spelling of its header (bearer, Bearer with two spaces)', async () => {
    // Prepare
    const client = await newClient(gateway);
    const spelled = (authorization: string) =>
      sendJson(`${gateway.url}/api/v1/spaces`, 'GET', {
        headers: { Accept: 'application/json', Authorization: authorization },
      });
    // Act: the authorizer takes one space only, so the second spelling is refused (401), but it still counts
    const replies = [];
    for (let i = 0; i < LIMIT; i += 1) {
      replies.push(await spelled(i % 2 === 0 ? `bearer ${client.key}` : `Bearer  ${client.key}`));
    }
    const next = await client.get('/api/v1/spaces');
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual([200, 401, 200, 401, 200]);
    expect(next.status).toBe(429);
    expect(next.body).toEqual(TOO_MANY_REQUESTS);
  });

  it('limits an unknown key by its own header value, before the authorizer', async () => {
    // Prepare
    const unknown = keyClient(gateway, generateApiKey());
    // Act
    const replies = [];
    for (let i = 0; i <= LIMIT; i += 1) replies.push(await unknown.get('/api/v1/spaces'));
    // Assess
    expect(replies.slice(0, LIMIT).map((reply) => reply.body)).toEqual(Array(LIMIT).fill(UNAUTHENTICATED));
    expect(replies[LIMIT]?.status).toBe(429);
    expect(replies[LIMIT]?.body).toEqual(TOO_MANY_REQUESTS);
  });

  it('leaves requests without a key to the 401', async () => {
    // Act
    const replies = [];
    for (let i = 0; i <= LIMIT; i += 1) {
      replies.push(await sendJson(`${gateway.url}/api/v1/spaces`, 'GET', { headers: { Accept: 'application/json' } }));
    }
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual(Array(LIMIT + 1).fill(401));
  });
});
