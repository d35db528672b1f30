/**
 * The HTTP conventions every path of the API follows through the local gateway, as API Gateway answers them on
 * AWS (`infra/constructs/rest-api.ts`): the CORS preflight, 405 with `Allow`, HEAD beside every GET,
 * `X-Request-Id` on every answer (and in the gateway's log lines), the CORS headers on the gateway's errors and
 * the handlers' answers, and the public OpenAPI document. One gateway allows any origin (the local default),
 * the other a list, with a per-key rate limit.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { errorBody } from '#lib/http/errors.ts';
import { CORS_ALLOW_HEADERS, CORS_EXPOSE_HEADERS, CORS_MAX_AGE_SECONDS } from '#lib/http/headers.ts';
import type { Scope } from '#lib/kinds.ts';
import { OPENAPI_FILE } from '#lib/openapi/files.ts';
import { apiMethods, apiPaths, documentRoute, routes } from '#lib/routes.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';
import { config, db } from '#test/support/database.ts';
import { clientFor, type Reply, send, startTestGateway } from '#test/support/http.ts';
import { UNAUTHENTICATED } from './helpers.ts';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';
const LIMIT = 3;
const METHOD_NOT_ALLOWED = errorBody('methodNotAllowed');
const EXPOSED = CORS_EXPOSE_HEADERS.join(', ');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Methods a client may send; each path answers some of them, and 405 to the others. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Any origin (the local default, as the dev stage). */
let open: Gateway;
/** Listed origins only, and a per-key rate limit. */
let listed: Gateway;
beforeAll(async () => {
  [open, listed] = await Promise.all([
    // A webhook may name this machine (as on the local stack): its store needs no DNS here.
    startTestGateway({ config: { ...config, webhookLocalLoopback: true } as WebhookConfig }),
    startTestGateway({ config: { ...config, corsAllowedOrigins: [APP] }, rateLimitPerMinute: LIMIT }),
  ]);
});
afterAll(() => Promise.all([open.close(), listed.close()]));

/** A new owner's key (every scope unless given) and a client that sends it, every answer checked. */
async function clientOn(gateway: Gateway, scopes?: Scope[]) {
  const { key } = await createApiKey(db, `owner-${randomUUID()}`, 'conventions', scopes ? { scopes } : {});
  return clientFor(gateway, key);
}

/** A concrete path of each API path (`{id}` as 1). */
const concrete = (path: string) => path.replace('{id}', '1');
const corsNames = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS preflight (OPTIONS)', () => {
  it.each(apiPaths.map((path) => [path.path, path]))(
    'answers 204 on %s without a key, for any origin',
    async (_, path) => {
      // Act
      const reply = await send(`${open.url}${concrete(path.path)}`, 'OPTIONS', { headers: { Origin: OTHER } });
      // Assess
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('access-control-allow-methods')).toBe(path.methods.join(', '));
      expect(reply.headers.get('access-control-allow-headers')).toBe(CORS_ALLOW_HEADERS.join(', '));
      expect(reply.headers.get('access-control-max-age')).toBe(String(CORS_MAX_AGE_SECONDS));
      expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
      expect(reply.headers.get('vary')).toBeNull();
      expect(reply.headers.get('allow')).toBe(path.methods.join(', '));
      expect(reply.headers.get('x-request-id')).toMatch(UUID);
    },
  );

  it('names an allowed origin itself, and varies on Origin', async () => {
    // Act
    const reply = await send(`${listed.url}/api/v1/spaces/1`, 'OPTIONS', {
      headers: { Origin: APP, 'Access-Control-Request-Method': 'PATCH', 'Access-Control-Request-Headers': 'if-match' },
    });
    // Assess
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe(APP);
    expect(reply.headers.get('access-control-allow-methods')).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
    expect(reply.headers.get('vary')).toBe('Origin');
  });

  it('gives a disallowed origin no CORS header at all (the browser then refuses the request)', async () => {
    // Act
    const reply = await send(`${listed.url}/api/v1/spaces`, 'OPTIONS', {
      headers: { Origin: OTHER, 'Access-Control-Request-Method': 'POST' },
    });
    const withoutOrigin = await send(`${listed.url}/api/v1/spaces`, 'OPTIONS');
    // Assess
    for (const answer of [reply, withoutOrigin]) {
      expect(answer.status).toBe(204);
      expect(answer.text).toBe('');
      expect(corsNames(answer.headers)).toEqual([]);
      expect(answer.headers.get('vary')).toBe('Origin');
      expect(answer.headers.get('x-request-id')).toMatch(UUID);
    }
  });
});

describe('CORS preflight on a path the API does not have', () => {
  it.each([
    '/api/v1',
    '/api/v1/',
    '/api/v1/nothing',
    '/api/v1/spaces/1/nothing',
    '/api/v1/domains/1/verify/more',
    '/api/v1/events/x',
    '/api/v1/openapi.json/x',
    '/api/v1/a/b/c/d',
  ])('answers 204 under the base path (%s): the page sends its request and reads the 404', async (path) => {
    // Act
    const preflight = await send(`${listed.url}${path}`, 'OPTIONS', {
      headers: { Origin: APP, 'Access-Control-Request-Method': 'DELETE' },
    });
    const actual = await send(`${listed.url}${path}`, 'DELETE', { headers: { Origin: APP } });
    // Assess
    expect(preflight.status).toBe(204);
    expect(preflight.text).toBe('');
    expect(preflight.headers.get('allow')).toBe('OPTIONS');
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP);
    expect(preflight.headers.get('access-control-allow-methods')).toBe(apiMethods.join(', '));
    expect(preflight.headers.get('access-control-allow-headers')).toBe(CORS_ALLOW_HEADERS.join(', '));
    expect(actual.status).toBe(404);
    expect(actual.body).toEqual(errorBody('notFound'));
    expect(actual.headers.get('access-control-allow-origin')).toBe(APP);
  });

  it('is not answered outside the base path: 404', async () => {
    // Act
    const replies = await Promise.all(
      ['/', '/api', '/api/v2/spaces', '/api/v10'].map((path) => send(`${open.url}${path}`, 'OPTIONS')),
    );
    // Assess
    expect(replies.map((reply) => reply.status)).toEqual([404, 404, 404, 404]);
  });
});

describe('406 Not Acceptable', () => {
  it.each([
    ['application/xml'],
    ['text/html'],
    ['application/json;q=0, */*'],
    ['*/*;q=0'],
    ['application/vnd.api+json'],
  ])(
    'answers a request whose Accept (%s) excludes JSON, list, show, store, update or delete, doing nothing',
    async (accept) => {
      // Prepare
      const api = await clientOn(open);
      const stored = await api.post('/api/v1/spaces', { name: 'Kept', color: '1' });
      const path = `/api/v1/spaces/${stored.body.data.id}`;
      const headers = { Accept: accept };
      // Act
      const replies = await Promise.all([
        api.request('GET', '/api/v1/spaces', { headers }),
        api.request('GET', path, { headers }),
        api.request('POST', '/api/v1/spaces', { form: { name: 'Refused' }, headers }),
        api.request('PATCH', path, { form: { color: '5' }, headers }),
        api.request('DELETE', path, { headers }),
      ]);
      // Assess
      for (const reply of replies) {
        expect(reply.status).toBe(406);
        expect(reply.body).toEqual(errorBody('notAcceptable'));
        expect(reply.headers.get('x-request-id')).toMatch(UUID);
      }
      expect((await api.get('/api/v1/spaces')).body.data).toEqual([stored.body.data]);
    },
  );

  it.each([
    ['*/*'],
    ['application/*'],
    ['application/json'],
    ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
    ['nonsense'],
    [''],
  ])('answers JSON when Accept (%j) admits it', async (accept) => {
    // Prepare
    const api = await clientOn(open);
    // Act
    const reply = await api.request('GET', '/api/v1/spaces', { headers: { Accept: accept } });
    // Assess
    expect(reply.status).toBe(200);
  });
});

describe('Location on 201', () => {
  it.each([
    ['spaces', { name: 'Located' }],
    ['domains', { name: `located-${randomUUID().slice(0, 8)}.example.com` }],
  ])('names the stored %s, the same on a replay; a GET of it answers it', async (collection, form) => {
    // Prepare
    const api = await clientOn(open);
    const headers = { 'Idempotency-Key': randomUUID() };
    // Act
    const stored = await api.request('POST', `/api/v1/${collection}`, { form, headers });
    const replayed = await api.request('POST', `/api/v1/${collection}`, { form, headers });
    const location = stored.headers.get('location') as string;
    const shown = await api.get(new URL(location, `${open.url}/api/v1/${collection}`).pathname);
    // Assess: a reference relative to the URL the store called, as API Gateway saw the path (stage included).
    expect(stored.status).toBe(201);
    expect(location).toBe(`/api/v1/${collection}/${stored.body.data.id}`);
    expect(replayed.headers.get('location')).toBe(location);
    expect(shown.body).toEqual(stored.body);
  });
});

describe('a body that starts with a byte order mark', () => {
  it('is read past it, as JSON and as a form', async () => {
    // Prepare
    const api = await clientOn(open);
    // Act
    const json = await api.request('POST', '/api/v1/spaces', {
      body: '\uFEFF{"name":"Marked","color":4}',
      headers: { 'Content-Type': 'application/json' },
    });
    const form = await api.request('POST', '/api/v1/spaces', {
      body: '\uFEFFname=Form+marked&color=5',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    // Assess
    expect([json.status, form.status]).toEqual([201, 201]);
    expect(json.body.data).toMatchObject({ name: 'Marked', color: 4 });
    expect(form.body.data).toMatchObject({ name: 'Form marked', color: 5 });
  });
});

describe('405 Method Not Allowed', () => {
  const wrong = apiPaths.flatMap((path) =>
    METHODS.filter((method) => !path.methods.includes(method as never)).map((method) => ({ method, path })),
  );

  it('is answered to some method of every path', () => {
    expect(new Set(wrong.map(({ path }) => path.path))).toEqual(new Set(apiPaths.map((path) => path.path)));
  });

  it.each(wrong.map((entry) => [entry.method, entry.path.path, entry]))(
    'answers %s %s with 405, Allow and the JSON error, with or without a key',
    async (method, _, { path }) => {
      // Prepare
      const api = await clientOn(open);
      const url = concrete(path.path);
      // Act
      const replies = await Promise.all([
        api.request(method, url, method === 'GET' || method === 'HEAD' || method === 'DELETE' ? {} : { form: {} }),
        send(`${open.url}${url}`, method, { headers: { Origin: APP } }),
      ]);
      // Assess
      for (const reply of replies) {
        expect(reply.status).toBe(405);
        expect(reply.headers.get('allow')).toBe(path.methods.join(', '));
        expect(reply.headers.get('x-request-id')).toMatch(UUID);
        if (method === 'HEAD') {
          expect(reply.text).toBe('');
        } else {
          expect(reply.headers.get('content-type')).toBe('application/json');
          expect(reply.body).toEqual(METHOD_NOT_ALLOWED);
        }
      }
      expect(replies[1]?.headers.get('access-control-allow-origin')).toBe('*');
    },
  );
});

describe('HEAD', () => {
  /** The headers that must be the same for HEAD as for GET (the request id and the date differ). */
  const comparable = (reply: Reply) => {
    const {
      'x-request-id': id,
      date,
      connection,
      'keep-alive': keepAlive,
      ...rest
    } = Object.fromEntries(reply.headers);
    expect(id).toMatch(UUID);
    return rest;
  };

  it('answers every GET route like GET, without the body', async () => {
    // Prepare
    const api = await clientOn(open);
    const space = (await api.post('/api/v1/spaces', { name: 'Head' })).body.data;
    const domain = (await api.post('/api/v1/domains', { name: `head-${randomUUID().slice(0, 8)}.example.com` })).body
      .data;
    const webhook = (await api.post('/api/v1/webhooks', { url: 'http://127.0.0.1:9/head' })).body.data;
    const ids: Record<string, number> = { spaces: space.id, domains: domain.id, webhooks: webhook.id };
    const paths = routes
      .filter((route) => route.methods.includes('GET'))
      .map((route) => route.path.replace('{id}', String(ids[route.collection] ?? 1)));
    expect(paths).toHaveLength(8);
    // Act
    const pairs = await Promise.all(
      paths.map(async (path) => ({
        path,
        get: await api.request('GET', path, { headers: { Origin: APP } }),
        head: await api.request('HEAD', path, { headers: { Origin: APP } }),
      })),
    );
    // Assess
    for (const { path, get, head } of pairs) {
      expect(get.status, path).toBe(200);
      expect(head.status, path).toBe(200);
      expect(head.text, path).toBe('');
      expect(comparable(head), path).toEqual(comparable(get));
      expect(Number(head.headers.get('content-length')), path).toBe(Buffer.byteLength(get.text));
    }
  });

  it('asks for a key as GET does, and answers conditional requests as GET does', async () => {
    // Prepare
    const api = await clientOn(open);
    const { headers } = await api.post('/api/v1/spaces', { name: 'Tagged' });
    // Act
    const anonymous = await send(`${open.url}/api/v1/spaces`, 'HEAD');
    const unchanged = await api.request('HEAD', '/api/v1/spaces/1', {
      headers: { 'If-None-Match': headers.get('etag') ?? '' },
    });
    // Assess
    expect(anonymous.status).toBe(401);
    expect(anonymous.text).toBe('');
    expect(unchanged.status).toBe(304);
  });
});

describe('X-Request-Id', () => {
  it('is on every answer, 200, 401, 403, 404 (gateway and handler), 405 and 429, each its own', async () => {
    // Prepare
    const api = await clientOn(listed);
    const readOnly = await clientOn(listed, ['spaces:read']);
    const limited = await clientOn(listed);
    // Act
    const replies: Record<string, Reply> = {
      200: await api.get('/api/v1/spaces'),
      401: await send(`${listed.url}/api/v1/spaces`, 'GET'),
      403: await readOnly.post('/api/v1/spaces', { name: 'Refused' }),
      '404 (no such path)': await api.get('/api/v1/nothing'),
      '404 (no such item)': await api.get('/api/v1/spaces/999'),
      405: await api.request('DELETE', '/api/v1/spaces'),
    };
    for (let i = 0; i < LIMIT; i += 1) await limited.get('/api/v1/spaces');
    replies[429] = await limited.get('/api/v1/spaces');
    // Assess
    for (const [status, reply] of Object.entries(replies)) {
      expect(String(reply.status), status).toBe(status.slice(0, 3));
      expect(reply.headers.get('x-request-id'), status).toMatch(UUID);
    }
    const ids = Object.values(replies).map((reply) => reply.headers.get('x-request-id'));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('is on each log line the gateway writes', async () => {
    // Prepare
    const logging = await startTestGateway({ logRequests: true });
    const lines: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
    try {
      // Act
      const replies = [
        await send(`${logging.url}/api/v1/spaces`, 'GET'),
        await send(`${logging.url}/api/v1/spaces`, 'OPTIONS'),
        await send(`${logging.url}/api/v1/spaces`, 'DELETE'),
        await send(`${logging.url}/nowhere`, 'GET'),
      ];
      await vi.waitFor(() => expect(lines.length).toBeGreaterThanOrEqual(replies.length));
      // Assess
      for (const reply of replies) {
        const id = reply.headers.get('x-request-id') as string;
        expect(lines.filter((line) => line.includes(id))).toEqual([expect.stringContaining(` ${reply.status} `)]);
      }
    } finally {
      spy.mockRestore();
      await logging.close();
    }
  });
});

describe('CORS on actual answers', () => {
  it('puts them on the gateway’s 401 and on a handler’s 422, for any origin', async () => {
    // Prepare
    const api = await clientOn(open);
    // Act
    const unauthenticated = await send(`${open.url}/api/v1/spaces`, 'GET', { headers: { Origin: OTHER } });
    const invalid = await api.request('POST', '/api/v1/spaces', { form: { name: '' }, headers: { Origin: OTHER } });
    // Assess
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.body).toEqual(UNAUTHENTICATED);
    expect(invalid.status).toBe(422);
    for (const reply of [unauthenticated, invalid]) {
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('access-control-expose-headers')).toBe(EXPOSED);
      expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('names a listed origin on both; a handler names no other origin, a gateway error echoes it (as on AWS)', async () => {
    // Prepare
    const api = await clientOn(listed);
    const from = async (origin: string) => ({
      unauthenticated: await send(`${listed.url}/api/v1/domains`, 'GET', { headers: { Origin: origin } }),
      invalid: await api.request('POST', '/api/v1/domains', { form: { name: '' }, headers: { Origin: origin } }),
    });
    // Act
    const app = await from(APP);
    const other = await from(OTHER);
    // Assess
    for (const reply of Object.values(app)) {
      expect(reply.headers.get('access-control-allow-origin')).toBe(APP);
      expect(reply.headers.get('access-control-expose-headers')).toBe(EXPOSED);
      expect(reply.headers.get('vary')).toBe('Origin');
    }
    expect(other.invalid.status).toBe(422);
    expect(corsNames(other.invalid.headers)).toEqual([]);
    expect(other.invalid.headers.get('vary')).toBe('Origin');
    expect(other.unauthenticated.headers.get('access-control-allow-origin')).toBe(OTHER);
  });
});

describe('the OpenAPI document', () => {
  const committed = readFileSync(OPENAPI_FILE, 'utf8');
  /** The committed document names the default local server; the gateway names its own address instead. */
  const served = (gateway: Gateway) => committed.replaceAll('http://127.0.0.1:3000', gateway.url);

  it('is served without a key, cacheable, as the committed file', async () => {
    // Act
    const reply = await send(`${listed.url}${documentRoute.path}`, 'GET', { headers: { Origin: APP } });
    // Assess
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json');
    expect(reply.headers.get('cache-control')).toBe('public, max-age=300');
    expect(reply.headers.get('access-control-allow-origin')).toBe(APP);
    expect(reply.headers.get('x-request-id')).toMatch(UUID);
    expect(reply.text).toBe(served(listed));
  });

  it('answers HEAD with the same headers and no body, OPTIONS as a preflight, and 405 to other methods', async () => {
    // Act
    const head = await send(`${open.url}${documentRoute.path}`, 'HEAD');
    const preflight = await send(`${open.url}${documentRoute.path}`, 'OPTIONS', { headers: { Origin: APP } });
    const post = await send(`${open.url}${documentRoute.path}`, 'POST');
    // Assess
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('cache-control')).toBe('public, max-age=300');
    expect(Number(head.headers.get('content-length'))).toBe(Buffer.byteLength(served(open)));
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });
});
