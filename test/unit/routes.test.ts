import { describe, expect, it } from 'vitest';
import { matchRoute } from '#infra/local/routing.ts';
import { collections, kinds, scopes } from '#lib/kinds.ts';
import { routes, routesFor } from '#lib/routes.ts';

describe('route table', () => {
  it('declares the three collections and the kind each stores', () => {
    // Assess
    expect(Object.keys(collections)).toEqual(['domains', 'spaces', 'webhooks']);
    expect(collections.spaces).toMatchObject({ kind: 'space', title: 'Space', tag: 'Spaces' });
    expect(collections.domains).toMatchObject({ kind: 'domain', title: 'Domain', tag: 'Domains' });
    expect(collections.webhooks).toMatchObject({ kind: 'webhook', title: 'Webhook', tag: 'Webhooks' });
    expect(kinds).toEqual(['domain', 'space', 'webhook']);
  });

  it('has exactly the six scopes, read and write per collection', () => {
    // Assess
    expect([...scopes].sort()).toEqual([
      'domains:read',
      'domains:write',
      'spaces:read',
      'spaces:write',
      'webhooks:read',
      'webhooks:write',
    ]);
  });

  it('keeps every Lambda name, handler and path (deployed functions are named after them)', () => {
    // Act
    const table = routes.map(({ name, collection, action, handler, path }) => [
      name,
      collection,
      action,
      handler,
      path,
    ]);
    // Assess
    expect(table).toEqual([
      ['list-domains', 'domains', 'list', 'domains/list', '/api/v1/domains'],
      ['store-domain', 'domains', 'store', 'domains/store', '/api/v1/domains'],
      ['show-domain', 'domains', 'show', 'domains/show', '/api/v1/domains/{id}'],
      ['update-domain', 'domains', 'update', 'domains/update', '/api/v1/domains/{id}'],
      ['destroy-domain', 'domains', 'destroy', 'domains/destroy', '/api/v1/domains/{id}'],
      ['verify-domain', 'domains', 'verify', 'domains/verify', '/api/v1/domains/{id}/verify'],
      ['list-spaces', 'spaces', 'list', 'spaces/list', '/api/v1/spaces'],
      ['store-space', 'spaces', 'store', 'spaces/store', '/api/v1/spaces'],
      ['show-space', 'spaces', 'show', 'spaces/show', '/api/v1/spaces/{id}'],
      ['update-space', 'spaces', 'update', 'spaces/update', '/api/v1/spaces/{id}'],
      ['destroy-space', 'spaces', 'destroy', 'spaces/destroy', '/api/v1/spaces/{id}'],
      ['list-webhooks', 'webhooks', 'list', 'webhooks/list', '/api/v1/webhooks'],
      ['store-webhook', 'webhooks', 'store', 'webhooks/store', '/api/v1/webhooks'],
      ['show-webhook', 'webhooks', 'show', 'webhooks/show', '/api/v1/webhooks/{id}'],
      ['update-webhook', 'webhooks', 'update', 'webhooks/update', '/api/v1/webhooks/{id}'],
      ['destroy-webhook', 'webhooks', 'destroy', 'webhooks/destroy', '/api/v1/webhooks/{id}'],
      [
        'rotate-secret-webhook',
        'webhooks',
        'rotate-secret',
        'webhooks/rotate-secret',
        '/api/v1/webhooks/{id}/rotate-secret',
      ],
      ['test-webhook', 'webhooks', 'test', 'webhooks/test', '/api/v1/webhooks/{id}/test'],
      ['deliveries-webhook', 'webhooks', 'deliveries', 'webhooks/deliveries', '/api/v1/webhooks/{id}/deliveries'],
      ['list-events', 'events', 'list', 'events/list', '/api/v1/events'],
    ]);
  });

  it.each(routes.filter((route) => route.collection !== 'events'))(
    '$name needs the scope its action implies',
    (route) => {
      // Prepare: reads are list, show and a webhook's deliveries; every other action writes (verify too: it
      // changes the domain; a webhook's test records an attempt).
      const access = {
        list: 'read',
        show: 'read',
        deliveries: 'read',
        store: 'write',
        update: 'write',
        destroy: 'write',
        verify: 'write',
        'rotate-secret': 'write',
        test: 'write',
      }[route.action];
      // Assess
      expect(route.scope).toBe(`${route.collection}:${access}`);
      expect(scopes).toContain(route.scope);
    },
  );

  it('lets any read scope call the change feed (which shows only what the key may read)', () => {
    // Act
    const feed = routes.find((route) => route.name === 'list-events');
    // Assess
    expect(feed?.scope).toBe('*:read');
    expect(routesFor(['domains:read']).map((route) => route.name)).toContain('list-events');
    expect(routesFor(['spaces:write']).map((route) => route.name)).not.toContain('list-events');
  });

  it('reads with GET only, and writes never with GET', () => {
    // Assess
    for (const route of routes) {
      const reads = route.scope.endsWith(':read');
      expect(
        route.methods.every((method) => (method === 'GET') === reads),
        route.name,
      ).toBe(true);
    }
  });

  it('gives a key exactly the routes its scopes cover', () => {
    // Act
    const names = (granted: Parameters<typeof routesFor>[0]) => routesFor(granted).map((route) => route.name);
    // Assess
    expect(names(['spaces:read'])).toEqual(['list-spaces', 'show-space', 'list-events']);
    expect(names(['domains:write'])).toEqual(['store-domain', 'update-domain', 'destroy-domain', 'verify-domain']);
    expect(names([...scopes])).toEqual(routes.map((route) => route.name));
    expect(names([])).toEqual([]);
  });
});

describe('route table', () => {
  it("has the operations of the contract (verify, the webhooks' item actions and the change feed among them), PUT and PATCH sharing the update handler", () => {
    // Act
    const operations = routes.flatMap((route) => route.methods.map((method) => `${method} ${route.path}`)).sort();
    // Assess
    expect(operations).toEqual(
      ['domains', 'spaces', 'webhooks']
        .flatMap((collection) => [
          `GET /api/v1/${collection}`,
          `POST /api/v1/${collection}`,
          `GET /api/v1/${collection}/{id}`,
          `PUT /api/v1/${collection}/{id}`,
          `PATCH /api/v1/${collection}/{id}`,
          `DELETE /api/v1/${collection}/{id}`,
        ])
        .concat(
          'POST /api/v1/domains/{id}/verify',
          'POST /api/v1/webhooks/{id}/rotate-secret',
          'POST /api/v1/webhooks/{id}/test',
          'GET /api/v1/webhooks/{id}/deliveries',
          'GET /api/v1/events',
        )
        .sort(),
    );
  });

  it.each([
    ['GET', '/api/v1/spaces', 'spaces/list', null],
    ['GET', '/api/v1/events', 'events/list', null],
    ['POST', '/api/v1/domains', 'domains/store', null],
    ['GET', '/api/v1/domains/42', 'domains/show', { id: '42' }],
    ['PUT', '/api/v1/spaces/7', 'spaces/update', { id: '7' }],
    ['PATCH', '/api/v1/spaces/7', 'spaces/update', { id: '7' }],
    ['DELETE', '/api/v1/domains/abc', 'domains/destroy', { id: 'abc' }],
    ['POST', '/api/v1/domains/42/verify', 'domains/verify', { id: '42' }],
    ['HEAD', '/api/v1/spaces', 'spaces/list', null],
    ['HEAD', '/api/v1/domains/42', 'domains/show', { id: '42' }],
  ])('%s %s runs %s', (method, path, handler, pathParameters) => {
    // Act
    const match = matchRoute(method, path);
    // Assess
    expect(match?.route.handler).toBe(handler);
    expect(match?.pathParameters).toEqual(pathParameters);
  });

  it.each([
    ['GET', '/'],
    ['GET', '/api/v1'],
    ['GET', '/api/v1/'],
    ['GET', '/api/v1/spaces/'],
    ['GET', '/api/v1/spaces/1/extra'],
    ['GET', '/api/v2/spaces'],
    ['GET', '/api/v1/users'],
    ['DELETE', '/api/v1/spaces'],
    ['PUT', '/api/v1/spaces'],
    ['POST', '/api/v1/spaces/1'],
    ['GET', '/api/v1/domains/1/verify'],
    ['POST', '/api/v1/domains//verify'],
    ['POST', '/api/v1/spaces/1/verify'],
    ['HEAD', '/api/v1/domains/1/verify'],
    ['OPTIONS', '/api/v1/spaces'],
    ['get', '/api/v1/spaces'],
  ])('does not match %s %s', (method, path) => {
    // Act / Assess
    expect(matchRoute(method, path)).toBeUndefined();
  });
});
