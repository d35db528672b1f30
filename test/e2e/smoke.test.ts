import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';

let gateway: Gateway;
let client: Client;

beforeAll(async () => {
  gateway = await startTestGateway();
  client = await newClient(gateway);
});
afterAll(() => gateway.close());

describe('spaces over HTTP', () => {
  it('stores a space and shows it back', async () => {
    // Act
    const stored = await client.post('/api/v1/spaces', { name: 'Marketing', color: '3' });
    const shown = await client.get(`/api/v1/spaces/${stored.body.data.id}`);
    // Assess
    expect(stored.status).toBe(201);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({ name: 'Marketing', color: 3 });
    expect(shown.headers.get('content-type')).toBe('application/json');
  });
});
