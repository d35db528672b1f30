/**
 * Request limits over HTTP: the page size cap, the body size cap (413), name and URL lengths, the
 * search length, and that a rejected request stores nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { MAX_BODY_BYTES } from '#lib/http/body.ts';
import { type Client, newClient, startTestGateway } from '#test/support/http.ts';
import { expectConsistent, expectErrorContract } from './helpers.ts';

let gateway: Gateway;
let client: Client;
const domainNames: string[] = [];

beforeAll(async () => {
  gateway = await startTestGateway();
  client = await newClient(gateway);
});
afterAll(async () => {
  await expectConsistent(client.owner, { domainNames });
  await gateway.close();
});

const tooLarge = { message: `The request body must not be larger than ${MAX_BODY_BYTES / 1024} KiB.`, status: 413 };

describe('page size', () => {
  it('per_page is capped: 1000 and other values outside 10/25/50/100 fall back to 10', async () => {
    // Prepare
    const lister = await newClient(gateway);
    for (let index = 0; index < 30; index++) await lister.post('/api/v1/spaces', { name: `Page ${index}` });
    // Act
    const answers = await Promise.all(
      ['1000', '101', '0', '-1', '25.5', 'abc', '1e2', '100'].map(async (perPage) => {
        const reply = await lister.get('/api/v1/spaces', { per_page: perPage });
        return [perPage, reply.body.meta.per_page, reply.body.data.length];
      }),
    );
    // Assess
    expect(answers).toEqual([
      ['1000', 10, 10],
      ['101', 10, 10],
      ['0', 10, 10],
      ['-1', 10, 10],
      ['25.5', 10, 10],
      ['abc', 10, 10],
      ['1e2', 10, 10],
      ['100', 100, 30],
    ]);
    await expectConsistent(lister.owner);
  });

  it('a page far past the end is an empty page, not an error or a long walk', async () => {
    // Act
    const far = await client.get('/api/v1/spaces', { page: 1_000_000_000 });
    const beyond = await client.get('/api/v1/spaces', { page: 1_000_000_001 });
    // Assess
    expect(far.status).toBe(200);
    expect(far.body.data).toEqual([]);
    expect(far.body.meta).toMatchObject({ current_page: 1_000_000_000, from: null, to: null });
    expect(beyond.body.meta.current_page).toBe(1);
  });
});

describe('body size', () => {
  const bodyOf = (bytes: number) => `name=${'x'.repeat(bytes - 5)}`;

  it(`a body of exactly ${MAX_BODY_BYTES} bytes is read (and its too-long name refused with 422)`, async () => {
    // Act
    const reply = await client.request('POST', '/api/v1/spaces', {
      body: bodyOf(MAX_BODY_BYTES),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expectErrorContract(reply, 422);
    expect(reply.body.errors).toHaveProperty('name');
  });

  it.each([
    ['one byte over the limit', MAX_BODY_BYTES + 1],
    ['1 MB', 1024 * 1024],
  ])('a body %s → 413, nothing stored', async (_, bytes) => {
    // Act
    const replies = await Promise.all([
      client.request('POST', '/api/v1/spaces', {
        body: bodyOf(bytes),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
      client.request('POST', '/api/v1/domains', {
        body: JSON.stringify({ name: 'big.example.com', index_page: `https://x.example.com/${'x'.repeat(bytes)}` }),
        headers: { 'Content-Type': 'application/json' },
      }),
      client.request('PATCH', '/api/v1/spaces/1', {
        body: bodyOf(bytes),
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    ]);
    // Assess
    for (const reply of replies) {
      expectErrorContract(reply, 413);
      expect(reply.body).toEqual(tooLarge);
    }
    expect((await client.get('/api/v1/domains', { search: 'big.example' })).body.meta.total).toBe(0);
  });

  it('a body over API Gateway’s own payload limit (10 MB) → its 413, in the same words as the handlers’', async () => {
    // Act: the gateway refuses it before any function runs (REQUEST_TOO_LARGE)
    const reply = await client.request('POST', '/api/v1/spaces', {
      body: bodyOf(10 * 1024 * 1024 + 1),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expectErrorContract(reply, 413);
    expect(reply.body).toEqual(tooLarge);
  });

  it('multi-byte characters count as bytes, not characters', async () => {
    // Act: 22,000 three-byte characters are 66,000 bytes, over the limit though under it in characters.
    const reply = await client.request('POST', '/api/v1/spaces', {
      body: JSON.stringify({ name: '€'.repeat(22_000) }),
      headers: { 'Content-Type': 'application/json' },
    });
    // Assess
    expectErrorContract(reply, 413);
  });
});

describe('lengths', () => {
  it('a space name of 32 characters is stored (astral characters count once); 33 is refused', async () => {
    // Act
    const ascii = await client.post('/api/v1/spaces', { name: 'n'.repeat(32) });
    const emoji = await client.post('/api/v1/spaces', { name: '😀'.repeat(32) });
    const padded = await client.post('/api/v1/spaces', { name: `   ${'p'.repeat(32)}   ` });
    const long = await client.post('/api/v1/spaces', { name: 'l'.repeat(33) });
    const renamed = await client.patch(`/api/v1/spaces/${ascii.body.data.id}`, { name: 'r'.repeat(33) });
    // Assess
    expect([ascii.status, emoji.status, padded.status]).toEqual([201, 201, 201]);
    expect(padded.body.data.name).toBe('p'.repeat(32));
    const message = 'The name field must not be greater than 32 characters.';
    for (const reply of [long, renamed]) {
      expectErrorContract(reply, 422);
      expect(reply.body).toEqual({ message, errors: { name: [message] }, status: 422 });
    }
    expect((await client.get(`/api/v1/spaces/${ascii.body.data.id}`)).body.data.name).toBe('n'.repeat(32));
  });

  it('a domain name of 239 characters is stored; 240 (no room for _ds-challenge.) and 254 are refused', async () => {
    // Prepare: four labels of at most 63 characters, 239 in all.
    const tag = randomUUID().slice(0, 8);
    const named = (last: number) =>
      [`${tag}${'a'.repeat(55)}`, 'b'.repeat(63), 'c'.repeat(63), `${'d'.repeat(last)}.com`].join('.');
    const [name, unverifiable, longer] = [named(43), named(44), named(58)];
    expect([name.length, unverifiable.length, longer.length]).toEqual([239, 240, 254]);
    domainNames.push(name, unverifiable, longer);
    // Act
    const stored = await client.post('/api/v1/domains', { name });
    const refused = await client.post('/api/v1/domains', { name: unverifiable });
    const long = await client.post('/api/v1/domains', { name: longer });
    // Assess
    expect(stored.status).toBe(201);
    expect(stored.body.data.verification.name).toHaveLength(253);
    expectErrorContract(refused, 422);
    expect(refused.body.errors.name[0]).toMatch(/^The name field must not be greater than 239 characters/);
    expectErrorContract(long, 422);
    expect(long.body.errors.name).toEqual(['The name field must not be greater than 253 characters.']);
  });

  it('page URLs of 255 characters are stored; 256 are refused', async () => {
    // Prepare
    const url = (length: number) => `https://pages.example.net/${'p'.repeat(length - 26)}`;
    const name = `pages-${randomUUID().slice(0, 8)}.example.com`;
    domainNames.push(name);
    // Act
    const stored = await client.post('/api/v1/domains', { name, index_page: url(255), not_found_page: url(255) });
    const long = await client.patch(`/api/v1/domains/${stored.body.data.id}`, { not_found_page: url(256) });
    // Assess
    expect(stored.status).toBe(201);
    expectErrorContract(long, 422);
    expect(long.body.errors).toEqual({
      not_found_page: ['The not found page field must not be greater than 255 characters.'],
    });
    expect((await client.get(`/api/v1/domains/${stored.body.data.id}`)).body.data.not_found_page).toBe(url(255));
  });

  it('a search longer than 255 characters (longer than any name) matches nothing: never every item', async () => {
    // Act
    const all = await client.get('/api/v1/spaces');
    const long = await client.get('/api/v1/spaces', { search: 'n'.repeat(256) });
    // Assess
    expect(all.body.meta.total).toBeGreaterThan(0);
    expect(long.status).toBe(200);
    expect(long.body.meta.total).toBe(0);
    expect(long.body.data).toEqual([]);
    expect(long.body.links.first).toContain(`search=${'n'.repeat(256)}`);
  });
});
