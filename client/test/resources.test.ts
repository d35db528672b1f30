/**
 * The client's spaces, domains and webhooks against the local stack: typed results with their ETag and request id,
 * conditional writes, every page of a list, and the API's errors as `ApiError` (412, 422 with `errors`, 404).
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Gateway } from '../../infra/local/gateway.ts';
import type { WebhookConfig } from '../../lib/webhooks/settings.ts';
import { type DnsTestServer, startDnsServer } from '../../test/support/dns-server.ts';
import { configWithDns, publish } from '../../test/support/domains.ts';
import { startTestGateway } from '../../test/support/http.ts';
import { startReceiver, type WebhookReceiver } from '../../test/support/webhook-receiver.ts';
import {
  type Account,
  ApiError,
  type Deleted,
  type Delivery,
  type Domain,
  type NotModified,
  type Result,
  type Space,
  type Webhook,
  type WebhookWithSecret,
} from '../src/index.ts';
import { all, checkedFetch, clientOf, rejectionOf, unique } from './support.ts';

let dns: DnsTestServer;
let gateway: Gateway;
let receiver: WebhookReceiver;
beforeAll(async () => {
  dns = await startDnsServer();
  receiver = await startReceiver();
  // A webhook may call the test receiver on this machine, as on the local stack.
  gateway = await startTestGateway({ config: { ...configWithDns(dns), webhookLocalLoopback: true } as WebhookConfig });
});
afterAll(async () => {
  await gateway?.close();
  await dns?.close();
  await receiver?.close();
});

const STRONG_ETAG = /^"\d+"$/;

describe.concurrent('spaces', () => {
  it('stores, shows, updates, replaces and deletes, with typed results, ETags and request ids', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const name = unique('Marketing');
    // Act
    const stored = await api.spaces.store({ name, color: 3 });
    const shown = await api.spaces.show(stored.data.id);
    const updated = await api.spaces.update(stored.data.id, { color: 4 }, { ifMatch: shown.etag });
    const replaced = await api.spaces.replace(stored.data.id, { name: `${name} 2` });
    const deleted = await api.spaces.delete(stored.data.id, { ifMatch: replaced.etag });
    const gone = await rejectionOf(api.spaces.show(stored.data.id));
    // Assess
    expectTypeOf(stored).toEqualTypeOf<Result<Space>>();
    expectTypeOf(shown.data).toEqualTypeOf<Space>();
    expectTypeOf(deleted).toEqualTypeOf<Result<Deleted>>();
    expect(stored).toMatchObject({ status: 201, replayed: false, notModified: false, data: { name, color: 3 } });
    expect(stored.etag).toMatch(STRONG_ETAG);
    expect(stored.requestId).toEqual(expect.any(String));
    expect(shown).toMatchObject({ status: 200, etag: stored.etag, data: stored.data });
    expect(updated.data).toMatchObject({ id: stored.data.id, name, color: 4 });
    expect(updated.etag).not.toBe(stored.etag);
    expect(replaced.data).toMatchObject({ name: `${name} 2`, color: 4 });
    expect(deleted.data).toEqual({ id: stored.data.id, object: 'space', deleted: true, status: 200 });
    expect(gone).toBeInstanceOf(ApiError);
    expect(gone).toMatchObject({ status: 404, message: 'Resource not found.', errors: undefined });
  });

  it('answers a show with ifNoneMatch as notModified while the version is current', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const stored = await api.spaces.store({ name: unique('Cached') });
    // Act
    const unchanged = await api.spaces.show(stored.data.id, { ifNoneMatch: stored.etag });
    await api.spaces.update(stored.data.id, { color: 2 });
    const changed = await api.spaces.show(stored.data.id, { ifNoneMatch: stored.etag });
    // Assess
    expectTypeOf(unchanged).toEqualTypeOf<Result<Space> | NotModified>();
    expect(unchanged).toEqual({
      notModified: true,
      status: 304,
      etag: stored.etag,
      requestId: expect.any(String),
    });
    expect(changed.notModified).toBe(false);
    if (!changed.notModified) expect(changed.data.color).toBe(2);
  });

  it('refuses an update or delete whose ifMatch is stale with a 412 ApiError, changing nothing', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const stored = await api.spaces.store({ name: unique('Contended'), color: 1 });
    await api.spaces.update(stored.data.id, { color: 2 }, { ifMatch: stored.etag });
    // Act
    const update = await rejectionOf(api.spaces.update(stored.data.id, { color: 5 }, { ifMatch: stored.etag }));
    const remove = await rejectionOf(api.spaces.delete(stored.data.id, { ifMatch: stored.etag }));
    // Assess
    for (const error of [update, remove]) {
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 412, message: 'The resource has been modified.', errors: undefined });
      expect((error as ApiError).requestId).toEqual(expect.any(String));
    }
    expect((await api.spaces.show(stored.data.id)).data.color).toBe(2);
  });

  it('throws a 422 ApiError with the field errors, its message and request id', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const name = unique('Taken');
    await api.spaces.store({ name });
    // Act
    const invalid = await rejectionOf(api.spaces.store({ name: '', color: 9 }));
    const taken = await rejectionOf(api.spaces.store({ name: name.toUpperCase() }));
    // Assess
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({
      name: 'ApiError',
      status: 422,
      message: expect.any(String),
      errors: { name: [expect.any(String)], color: [expect.any(String)] },
      retryAfter: undefined,
    });
    expect((invalid as ApiError).requestId).toEqual(expect.any(String));
    expect(taken).toMatchObject({ status: 422, errors: { name: ['The name has already been taken.'] } });
  });

  it('lists every page, in the order asked for, following links.next', async () => {
    // Prepare: 23 spaces are three pages of 10.
    const { api } = await clientOf(gateway);
    const prefix = unique('Paged');
    const names = Array.from({ length: 23 }, (_, i) => `${prefix} ${String(i).padStart(2, '0')}`);
    for (const name of names) await api.spaces.store({ name });
    await api.spaces.store({ name: unique('Elsewhere') });
    // Act
    const listed = await all(api.spaces.list({ search: prefix, sortBy: 'name', sort: 'asc', perPage: 10 }));
    const pages = await all(api.spaces.list({ search: prefix, perPage: 10 }).pages());
    const newestFirst = await all(api.spaces.list({ search: prefix }));
    // Assess
    expectTypeOf(listed).toEqualTypeOf<Space[]>();
    expect(listed.map((space) => space.name)).toEqual(names);
    expect(pages.map((page) => page.data.data.length)).toEqual([10, 10, 3]);
    expect(pages.map((page) => page.data.meta.current_page)).toEqual([1, 2, 3]);
    expect(pages.at(-1)?.data.links.next).toBeNull();
    expect(newestFirst.map((space) => space.name)).toEqual(names.toReversed());
  });

  it('stops a list early when the loop breaks, reading no further page', async () => {
    // Prepare
    let requests = 0;
    const { api } = await clientOf(gateway, {
      fetch: (request) => {
        requests++;
        return checkedFetch(request);
      },
    });
    const prefix = unique('Early');
    for (let i = 0; i < 12; i++) await api.spaces.store({ name: `${prefix} ${i}` });
    requests = 0;
    // Act
    let seen = 0;
    for await (const _space of api.spaces.list({ search: prefix })) if (++seen === 3) break;
    // Assess
    expect(seen).toBe(3);
    expect(requests).toBe(1);
  });
});

describe.concurrent('domains', () => {
  it('stores, shows, updates and deletes a domain, typed', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const name = `client-${crypto.randomUUID().slice(0, 8)}.example.com`;
    // Act
    const stored = await api.domains.store({
      name: `https://${name.toUpperCase()}/`,
      index_page: 'https://www.example.org/',
    });
    const updated = await api.domains.update(stored.data.id, { index_page: null }, { ifMatch: stored.etag });
    const replaced = await api.domains.replace(stored.data.id, { not_found_page: 'https://www.example.org/404' });
    const shown = await api.domains.show(replaced.data.id);
    const deleted = await api.domains.delete(stored.data.id);
    // Assess
    expectTypeOf(stored.data).toEqualTypeOf<Domain>();
    expect(stored).toMatchObject({
      status: 201,
      data: { name, status: 'pending', index_page: 'https://www.example.org/' },
    });
    expect(stored.data.verification).toMatchObject({ type: 'TXT', name: `_ds-challenge.${name}` });
    expect(updated.data.index_page).toBeNull();
    expect(shown.data).toMatchObject({ index_page: null, not_found_page: 'https://www.example.org/404' });
    expect(shown.etag).toBe(replaced.etag);
    expect(deleted.data).toEqual({ id: stored.data.id, object: 'domain', deleted: true, status: 200 });
  });

  it('verifies: a 422 ApiError on verification while the TXT record is missing, active once it is published', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const stored = await api.domains.store({ name: `verify-${crypto.randomUUID().slice(0, 8)}.example.com` });
    // Act
    const missing = await rejectionOf(api.domains.verify(stored.data.id));
    publish(dns, stored.data);
    const verified = await api.domains.verify(stored.data.id);
    // Assess
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 422, errors: { verification: [expect.stringContaining('found none')] } });
    expect(verified).toMatchObject({ status: 200, data: { id: stored.data.id, status: 'active' } });
    expect(verified.data.verified_at).toEqual(expect.any(String));
  });

  it('lists every page of domains', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const label = `paged-${crypto.randomUUID().slice(0, 8)}`;
    for (let i = 0; i < 12; i++) await api.domains.store({ name: `${label}-${i}.example.com` });
    // Act
    const listed = await all(api.domains.list({ search: label, sortBy: 'id', sort: 'asc' }));
    // Assess
    expect(listed.map((domain) => domain.name)).toEqual(
      Array.from({ length: 12 }, (_, i) => `${label}-${i}.example.com`),
    );
  });

  it('throws a 404 ApiError for an id the owner does not have', async () => {
    // Prepare
    const [{ api: alice }, { api: bob }] = await Promise.all([clientOf(gateway), clientOf(gateway)]);
    const stored = await alice.domains.store({ name: `theirs-${crypto.randomUUID().slice(0, 8)}.example.com` });
    // Act
    const error = await rejectionOf(bob.domains.delete(stored.data.id));
    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404, message: 'Resource not found.' });
    expect((error as ApiError).requestId).toEqual(expect.any(String));
  });
});

describe.concurrent('webhooks', () => {
  it('stores with the secret, shows without it, rotates, tests, and lists every attempt, typed', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    // Act
    const stored = await api.webhooks.store({ url: receiver.url(`/${crypto.randomUUID()}`), events: ['space.*'] });
    const shown = await api.webhooks.show(stored.data.id);
    const disabled = await api.webhooks.update(stored.data.id, { enabled: false }, { ifMatch: shown.etag });
    const rotated = await api.webhooks.rotateSecret(stored.data.id);
    const tests: Result<Delivery>[] = [];
    for (let i = 0; i < 12; i++) tests.push(await api.webhooks.test(stored.data.id));
    const attempts = await all(api.webhooks.deliveries(stored.data.id));
    const deleted = await api.webhooks.delete(stored.data.id);
    // Assess
    expectTypeOf(stored).toEqualTypeOf<Result<WebhookWithSecret>>();
    expectTypeOf(shown.data).toEqualTypeOf<Webhook>();
    expect(stored).toMatchObject({ status: 201, data: { events: ['space.*'], enabled: true } });
    expect(stored.data.secret).toMatch(/^whsec_/);
    expect(shown.data).not.toHaveProperty('secret');
    expect(disabled.data).toMatchObject({ enabled: false, disabled_reason: 'owner' });
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(stored.data.secret);
    expect(tests.map((test) => test.data.succeeded)).toEqual(Array(12).fill(true));
    expect(attempts).toHaveLength(12);
    expect(attempts.map((attempt) => attempt.event_type)).toEqual(Array(12).fill('webhook.test'));
    expect(deleted.data).toEqual({ id: stored.data.id, object: 'webhook', deleted: true, status: 200 });
  });

  it('says a refused URL as a 422 ApiError on url', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    // Act
    const refused = await rejectionOf(api.webhooks.store({ url: 'https://10.0.0.1/hook' }));
    // Assess
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      status: 422,
      errors: { url: ['The url field must not point to a private network address.'] },
    });
  });
});

describe('account', () => {
  it('gets the plan, the usage and the key, typed, with an ETag; ifNoneMatch answers notModified', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    await api.spaces.store({ name: unique('Counted'), color: 1 });
    // Act
    const account = await api.account.get();
    const again = await api.account.get({ ifNoneMatch: account.etag });
    // Assess
    expectTypeOf(account).toEqualTypeOf<Result<Account>>();
    expect(account.data.plan).toBe('standard');
    expect(account.data.usage.spaces).toEqual({ used: 1, limit: 10_000 });
    expect(account.data.key.scopes.length).toBeGreaterThan(0);
    expect(account.etag).toMatch(/^"a[0-9a-f]{16}"$/);
    expect(again.notModified).toBe(true);
  });
});
