/**
 * Retries and idempotency against the local stack: every write carries an `Idempotency-Key` that its retries
 * reuse, so a write whose answer was lost is retried into the same item; 429 and 503 are retried after their
 * `Retry-After` within the attempts and the budget; nothing else is. The faults are made by a `fetch` wrapped
 * around the real one: it drops an answer that reached the server, or answers 503/429 itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '../../infra/local/gateway.ts';
import { type DnsTestServer, startDnsServer } from '../../test/support/dns-server.ts';
import { configWithDns, publish } from '../../test/support/domains.ts';
import { startTestGateway } from '../../test/support/http.ts';
import { ApiError, RETRY_DEFAULTS } from '../src/index.ts';
import { all, checkedFetch, clientOf, clientWithKey, type Fetch, rejectionOf, unique } from './support.ts';

let dns: DnsTestServer;
let gateway: Gateway;
let limited: Gateway;
beforeAll(async () => {
  dns = await startDnsServer();
  gateway = await startTestGateway({ config: configWithDns(dns) });
  limited = await startTestGateway({ rateLimitPerMinute: 2 });
});
afterAll(async () => {
  await Promise.all([gateway?.close(), limited?.close()]);
  await dns?.close();
});

/** The requests a fetch saw: method, path and Idempotency-Key. */
type Seen = { method: string; path: string; key: string | null };

/** The checked fetch, recording each request, with `fault` deciding per attempt (1-based) what to do instead. */
function faulty(fault: (attempt: number, request: Request, pass: Fetch) => Promise<Response> | undefined) {
  const seen: Seen[] = [];
  const fetch: Fetch = (request) => {
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname,
      key: request.headers.get('Idempotency-Key'),
    });
    return fault(seen.length, request, checkedFetch) ?? checkedFetch(request);
  };
  return { fetch, seen };
}

/** An answer as the API gives it, for a status it would answer. */
function answer(status: 429 | 503, retryAfter: string): Response {
  const message = status === 429 ? 'Too Many Requests.' : 'Service Unavailable.';
  return Response.json(
    { message, status },
    { status, headers: { 'Retry-After': retryAfter, 'X-Request-Id': `fake-${status}` } },
  );
}

/** Lets the request reach the server, then loses its answer the way a dropped connection does. */
async function lostAnswer(request: Request, pass: Fetch): Promise<never> {
  const response = await pass(request);
  await response.body?.cancel();
  throw new TypeError('fetch failed');
}

describe.concurrent('Idempotency-Key', () => {
  it('is sent on every write, a new one per call, none on reads', async () => {
    // Prepare
    const { fetch, seen } = faulty(() => undefined);
    const { api } = await clientOf(gateway, { fetch });
    // Act
    const stored = await api.spaces.store({ name: unique('Keyed') });
    await api.spaces.update(stored.data.id, { color: 2 });
    await api.spaces.show(stored.data.id);
    await all(api.spaces.list());
    await api.spaces.delete(stored.data.id);
    // Assess
    const keys = seen.map((request) => request.key);
    expect(seen.map((request) => request.method)).toEqual(['POST', 'PATCH', 'GET', 'GET', 'DELETE']);
    expect(keys[2]).toBeNull();
    expect(keys[3]).toBeNull();
    const writeKeys = [keys[0], keys[1], keys[4]];
    for (const key of writeKeys) expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(writeKeys).size).toBe(3);
  });

  it('makes a store whose answer was lost answer the same item when retried, storing one', async () => {
    // Prepare: the first answer is lost after the server stored the space.
    const { fetch, seen } = faulty((attempt, request, pass) => (attempt === 1 ? lostAnswer(request, pass) : undefined));
    const { api } = await clientOf(gateway, { fetch });
    const name = unique('Lost answer');
    // Act
    const stored = await api.spaces.store({ name, color: 2 });
    // Assess
    expect(seen).toHaveLength(2);
    expect(seen[1]?.key).toBe(seen[0]?.key);
    expect(stored).toMatchObject({ status: 201, replayed: true, data: { name, color: 2 } });
    const listed = await all(api.spaces.list({ search: name }));
    expect(listed).toEqual([stored.data]);
  });

  it('makes a delete whose answer was lost answer its 200 again, not 404', async () => {
    // Prepare
    let lose = false;
    const { fetch } = faulty((_attempt, request, pass) => {
      if (!lose || request.method !== 'DELETE') return undefined;
      lose = false;
      return lostAnswer(request, pass);
    });
    const { api } = await clientOf(gateway, { fetch });
    const stored = await api.spaces.store({ name: unique('Deleted once') });
    lose = true;
    // Act
    const deleted = await api.spaces.delete(stored.data.id);
    // Assess
    expect(deleted).toMatchObject({ status: 200, replayed: true, data: { id: stored.data.id, deleted: true } });
  });

  it('uses the key given, so a call repeated by the caller stores once', async () => {
    // Prepare
    const { api } = await clientOf(gateway);
    const idempotencyKey = crypto.randomUUID();
    const name = unique('Given key');
    // Act
    const first = await api.spaces.store({ name }, { idempotencyKey });
    const again = await api.spaces.store({ name }, { idempotencyKey });
    const reused = await rejectionOf(api.spaces.store({ name: unique('Other') }, { idempotencyKey }));
    // Assess
    expect(first.replayed).toBe(false);
    expect(again).toMatchObject({ replayed: true, data: first.data });
    expect(reused).toMatchObject({ status: 422, errors: { 'Idempotency-Key': [expect.any(String)] } });
  });
});

describe.concurrent('retries', () => {
  it('retries a 503 after its Retry-After, with the same key', async () => {
    // Prepare
    const { fetch, seen } = faulty((attempt) => (attempt === 1 ? Promise.resolve(answer(503, '0')) : undefined));
    const { api } = await clientOf(gateway, { fetch });
    // Act
    const stored = await api.spaces.store({ name: unique('After 503') });
    // Assess
    expect(stored.status).toBe(201);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.key).toBe(seen[0]?.key);
  });

  it('waits the Retry-After it was given before retrying a 429', async () => {
    // Prepare
    const { fetch, seen } = faulty((attempt) => (attempt === 1 ? Promise.resolve(answer(429, '1')) : undefined));
    const { api } = await clientOf(gateway, { fetch });
    const started = performance.now();
    // Act
    const listed = await all(api.spaces.list());
    // Assess
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(listed).toEqual([]);
    expect(seen).toHaveLength(2);
  });

  it('retries a verify whose DNS lookup failed (503) and gets its answer once DNS answers', async () => {
    // Prepare: SERVFAIL until the first 503 (Retry-After: 5) is answered, then the record.
    const { api: plain, key } = await clientOf(gateway);
    const stored = await plain.domains.store({ name: `flaky-${crypto.randomUUID().slice(0, 8)}.example.com` });
    const challenge = stored.data.verification?.name ?? '';
    dns.setMode(challenge, 'servfail');
    const { fetch, seen } = faulty((attempt, request, pass) =>
      attempt === 1
        ? pass(request).then((response) => {
            dns.clear(challenge);
            publish(dns, stored.data);
            return response;
          })
        : undefined,
    );
    const api = clientWithKey(gateway, key, { fetch });
    // Act
    const verified = await api.domains.verify(stored.data.id);
    // Assess
    expect(verified).toMatchObject({ status: 200, data: { id: stored.data.id, status: 'active' } });
    expect(seen).toHaveLength(2);
    expect(seen[1]?.key).toBe(seen[0]?.key);
  });

  it('gives up after the attempts, throwing the last answer', async () => {
    // Prepare
    const { fetch, seen } = faulty(() => Promise.resolve(answer(503, '0')));
    const { api } = await clientOf(gateway, { fetch, retry: { attempts: 3 } });
    // Act
    const error = await rejectionOf(api.spaces.store({ name: unique('Unavailable') }));
    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, retryAfter: 0, requestId: 'fake-503', message: 'Service Unavailable.' });
    expect(seen).toHaveLength(3);
    expect(new Set(seen.map((request) => request.key)).size).toBe(1);
  });

  it('makes 4 attempts by default', async () => {
    // Prepare
    const { fetch, seen } = faulty(() => Promise.resolve(answer(503, '0')));
    const { api } = await clientOf(gateway, { fetch });
    // Act
    await rejectionOf(all(api.spaces.list()));
    // Assess
    expect(RETRY_DEFAULTS).toEqual({ attempts: 4, maxDelayMs: 5_000, budgetMs: 10_000 });
    expect(seen).toHaveLength(4);
  });

  it('does not wait a Retry-After longer than maxDelayMs, nor past the budget', async () => {
    // Prepare
    const tooLong = faulty(() => Promise.resolve(answer(503, '30')));
    const overBudget = faulty(() => Promise.resolve(answer(503, '1')));
    const { api: patient } = await clientOf(gateway, { fetch: tooLong.fetch });
    const { api: hurried } = await clientOf(gateway, { fetch: overBudget.fetch, retry: { budgetMs: 500 } });
    const started = performance.now();
    // Act
    const [longWait, pastBudget] = await Promise.all([
      rejectionOf(patient.spaces.store({ name: unique('Later') })),
      rejectionOf(hurried.spaces.store({ name: unique('Hurried') })),
    ]);
    // Assess
    expect(performance.now() - started).toBeLessThan(500);
    expect(longWait).toMatchObject({ status: 503, retryAfter: 30 });
    expect(pastBudget).toMatchObject({ status: 503, retryAfter: 1 });
    expect(tooLong.seen).toHaveLength(1);
    expect(overBudget.seen).toHaveLength(1);
  });

  it("throws the rate limiter's 429 with its Retry-After when it is longer than maxDelayMs", async () => {
    // Prepare: 2 requests a minute for this key.
    const { api } = await clientOf(limited);
    await api.spaces.store({ name: unique('One') });
    await api.spaces.store({ name: unique('Two') });
    // Act
    const error = await rejectionOf(api.spaces.store({ name: unique('Three') }));
    // Assess
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, message: 'Too Many Requests.' });
    expect((error as ApiError).retryAfter).toBeGreaterThan(5);
  });

  it('retries network failures with backoff, then throws the failure', async () => {
    // Prepare
    const { fetch, seen } = faulty(() => Promise.reject(new TypeError('fetch failed')));
    const { api } = await clientOf(gateway, { fetch, retry: { maxDelayMs: 20 } });
    // Act
    const error = await rejectionOf(api.spaces.update(1, { color: 2 }));
    // Assess
    expect(error).toBeInstanceOf(TypeError);
    expect(seen).toHaveLength(4);
    expect(new Set(seen.map((request) => request.key)).size).toBe(1);
  });

  it('never retries another 4xx, nor a 500', async () => {
    // Prepare
    const fails = faulty((attempt) =>
      attempt === 1
        ? Promise.resolve(Response.json({ message: 'Server Error.', status: 500 }, { status: 500 }))
        : undefined,
    );
    const { fetch, seen } = faulty(() => undefined);
    const { api } = await clientOf(gateway, { fetch });
    const { api: broken } = await clientOf(gateway, { fetch: fails.fetch });
    // Act
    const errors = await Promise.all([
      rejectionOf(api.spaces.show(999_999)),
      rejectionOf(api.spaces.store({ name: '' })),
      rejectionOf(broken.spaces.show(1)),
    ]);
    // Assess
    expect(errors.map((error) => (error as ApiError).status)).toEqual([404, 422, 500]);
    expect(seen).toHaveLength(2);
    expect(fails.seen).toHaveLength(1);
  });

  it('stops waiting as soon as the signal aborts', async () => {
    // Prepare
    const { fetch, seen } = faulty(() => Promise.resolve(answer(503, '3')));
    const { api } = await clientOf(gateway, { fetch });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stopped')), 50);
    const started = performance.now();
    // Act
    const error = await rejectionOf(api.spaces.store({ name: unique('Aborted') }, { signal: controller.signal }));
    // Assess
    expect(error).toEqual(new Error('stopped'));
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(seen).toHaveLength(1);
  });
});
