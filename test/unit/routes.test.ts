import { describe, expect, it } from 'vitest';
import { matchRoute, routes } from '#lib/routes.ts';

describe('route table', () => {
  it('has the ten operations of the contract, PUT and PATCH sharing the update handler', () => {
    // Act
    const operations = routes.flatMap((route) => route.methods.map((method) => `${method} ${route.path}`)).sort();
    // Assess
    expect(operations).toEqual(
      ['domains', 'spaces']
        .flatMap((collection) => [
          `GET /api/v1/${collection}`,
          `POST /api/v1/${collection}`,
          `GET /api/v1/${collection}/{id}`,
          `PUT /api/v1/${collection}/{id}`,
          `PATCH /api/v1/${collection}/{id}`,
          `DELETE /api/v1/${collection}/{id}`,
        ])
        .sort(),
    );
  });

  it.each([
    ['GET', '/api/v1/spaces', 'spaces/list', null],
    ['POST', '/api/v1/domains', 'domains/store', null],
    ['GET', '/api/v1/domains/42', 'domains/show', { id: '42' }],
    ['PUT', '/api/v1/spaces/7', 'spaces/update', { id: '7' }],
    ['PATCH', '/api/v1/spaces/7', 'spaces/update', { id: '7' }],
    ['DELETE', '/api/v1/domains/abc', 'domains/destroy', { id: 'abc' }],
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
    ['HEAD', '/api/v1/spaces'],
    ['OPTIONS', '/api/v1/spaces'],
    ['get', '/api/v1/spaces'],
  ])('does not match %s %s', (method, path) => {
    // Act / Assess
    expect(matchRoute(method, path)).toBeUndefined();
  });
});
