/**
 * What a key may do, without a database: the authorizer's policy for each set of scopes, evaluated the way API
 * Gateway evaluates a cached policy (`policyAllows`), the key tool's `--scopes` and its lifetimes.
 */
import type { APIGatewayAuthorizerResult } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { policyAllows } from '#infra/local/lambda.ts';
import { LAST_USE_RESOLUTION_SECONDS, lastUseIsStale } from '#lib/auth/data/keys.ts';
import { authorizerResult, policyFor, stageArn } from '#lib/auth/policy.ts';
import { expiryFrom, isExpired, parseDuration, parseGrace } from '#lib/auth/rules/expiry.ts';
import { allScopes, parseScopes, SCOPE_CATALOGUE, scopeReleases, storedScopes } from '#lib/auth/rules/scopes.ts';
import type { Scope } from '#lib/kinds.ts';
import { anyRead, type RouteScope, routes } from '#lib/routes.ts';

const API = 'arn:aws:execute-api:eu-west-1:123456789012:abcdef1234';
const methodArn = (method: string, path: string, stage = 'prod') => `${API}/${stage}/${method}${path}`;

/** Every method and concrete path of the API, with the scope it needs. */
const requests = routes.flatMap((route) =>
  route.methods.map((method) => ({ method, path: route.path.replace('{id}', '42'), scope: route.scope })),
);

const resultFor = (scopes: readonly Scope[], arn = methodArn('GET', '/api/v1/spaces')) =>
  authorizerResult(arn, 'acme', scopes, 'dsk_AbCdEfGh');

/** Whether these scopes cover a route's scope: the change feed's (`*:read`) is covered by any read scope. */
const covers = (scopes: readonly Scope[], scope: RouteScope) =>
  scope === anyRead ? scopes.some((granted) => granted.endsWith(':read')) : scopes.includes(scope);

describe('the authorizer policy', () => {
  it.each([
    [['domains:read', 'domains:write', 'spaces:read', 'spaces:write']],
    [['domains:read', 'spaces:read']],
    [['spaces:read', 'spaces:write']],
    [['domains:write']],
    [['spaces:read']],
  ] as Scope[][][])('allows exactly the routes %j cover, whichever route asked', (scopes) => {
    // Act: the answer is cached per key, so it must not depend on the route that asked for it.
    const answers = requests.map((asked) => resultFor(scopes, methodArn(asked.method, asked.path)));
    // Assess
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    for (const request of requests) {
      const allowed = policyAllows(answers[0] as APIGatewayAuthorizerResult, methodArn(request.method, request.path));
      expect(allowed, `${request.method} ${request.path}`).toBe(covers(scopes, request.scope));
    }
  });

  it('names one resource per covered method and path, ids as *, on the stage that asked', () => {
    // Act
    const policy = policyFor(methodArn('DELETE', '/api/v1/domains/7', 'dev'), ['spaces:read', 'domains:write']);
    // Assess
    expect(policy.Statement).toEqual([
      {
        Action: 'execute-api:Invoke',
        Effect: 'Allow',
        Resource: [
          `${API}/dev/POST/api/v1/domains`,
          `${API}/dev/PUT/api/v1/domains/*`,
          `${API}/dev/PATCH/api/v1/domains/*`,
          `${API}/dev/DELETE/api/v1/domains/*`,
          `${API}/dev/POST/api/v1/domains/*/verify`,
          `${API}/dev/GET/api/v1/spaces`,
          `${API}/dev/HEAD/api/v1/spaces`,
          `${API}/dev/GET/api/v1/spaces/*`,
          `${API}/dev/HEAD/api/v1/spaces/*`,
          `${API}/dev/GET/api/v1/events`, // any read scope
          `${API}/dev/HEAD/api/v1/events`,
        ],
      },
    ]);
  });

  it('covers no other stage and no other API', () => {
    // Prepare
    const result = resultFor(allScopes);
    // Assess
    expect(policyAllows(result, methodArn('GET', '/api/v1/spaces'))).toBe(true);
    expect(policyAllows(result, methodArn('GET', '/api/v1/spaces', 'dev'))).toBe(false);
    expect(policyAllows(result, `${API}x/prod/GET/api/v1/spaces`)).toBe(false);
  });

  it('denies the whole stage to a key whose scopes cover nothing (an explicit Deny wins)', () => {
    // Act
    const result = resultFor([]);
    // Assess
    expect(result.policyDocument.Statement).toEqual([
      { Action: 'execute-api:Invoke', Effect: 'Deny', Resource: `${API}/prod/*/*` },
    ]);
    for (const request of requests) expect(policyAllows(result, methodArn(request.method, request.path))).toBe(false);
    const both = {
      ...result,
      policyDocument: {
        ...result.policyDocument,
        Statement: [...resultFor(allScopes).policyDocument.Statement, ...result.policyDocument.Statement],
      },
    };
    expect(policyAllows(both, methodArn('GET', '/api/v1/spaces'))).toBe(false);
  });

  it('passes the owner, the scopes, comma-separated, and the key’s rotation line in the context', () => {
    // Act
    const result = resultFor(['domains:read', 'spaces:write']);
    // Assess
    expect(result.principalId).toBe('acme');
    expect(result.context).toEqual({
      ownerId: 'acme',
      scopes: 'domains:read,spaces:write',
      keyLineage: 'dsk_AbCdEfGh',
    });
  });

  it('reads the stage ARN off any method ARN, and refuses a malformed one', () => {
    // Assess
    expect(stageArn(methodArn('GET', '/api/v1/spaces/1'))).toBe(`${API}/prod`);
    expect(() => stageArn('not-an-arn')).toThrow();
  });
});

describe('--scopes', () => {
  it.each([
    ['domains:read,spaces:read', ['domains:read', 'spaces:read']],
    [' spaces:write , domains:read ', ['domains:read', 'spaces:write']],
    ['spaces:read,spaces:read', ['spaces:read']],
    ['spaces:*', ['spaces:read', 'spaces:write']],
    ['domains:*,spaces:read', ['domains:read', 'domains:write', 'spaces:read']],
  ])('%j → %j', (text, expected) => {
    // Act / Assess
    expect(parseScopes(text)).toEqual(expected);
  });

  it.each(['domains:delete', 'spaces', 'Spaces:read', 'folders:*', 'spaces:read,admin'])(
    'refuses %j, naming the scopes there are',
    (text) => {
      // Act / Assess
      expect(() => parseScopes(text)).toThrow(
        /^Unknown scope ".+"\. The scopes are: domains:read, domains:write, spaces:read, spaces:write, webhooks:read, webhooks:write\.$/,
      );
    },
  );

  it.each(['', ',', ' '])('refuses no scope at all (%j)', (text) => {
    // Act / Assess
    expect(() => parseScopes(text)).toThrow(/at least one scope/);
  });
});

describe('stored scopes', () => {
  const fourOld: Scope[] = ['domains:read', 'domains:write', 'spaces:read', 'spaces:write'];

  it('gives a key stored before scopes existed every scope', () => {
    // Act / Assess
    expect(storedScopes({})).toEqual([...allScopes]);
  });

  it('keeps the known scopes of a stored list, in order, and grants nothing for an unknown one', () => {
    // Act / Assess
    expect(storedScopes({ scopes: ['spaces:read', 'domains:read'] })).toEqual(['domains:read', 'spaces:read']);
    expect(storedScopes({ scopes: ['folders:read', 'spaces:write'] })).toEqual(['spaces:write']);
    expect(storedScopes({ scopes: [] })).toEqual([]);
  });

  it("gives a key stored without a marker with every scope there was before webhooks the webhooks' scopes too, and no other key", () => {
    // Act / Assess: the key tool's default then, in any order.
    expect(storedScopes({ scopes: fourOld })).toEqual([...allScopes]);
    expect(storedScopes({ scopes: ['spaces:write', 'spaces:read', 'domains:write', 'domains:read'] })).toEqual([
      ...allScopes,
    ]);
    expect(allScopes).toContain('webhooks:write');
    // Fewer than all of them is a choice: kept as it is.
    expect(storedScopes({ scopes: ['domains:read', 'spaces:read', 'spaces:write'] })).toEqual([
      'domains:read',
      'spaces:read',
      'spaces:write',
    ]);
    // A webhooks scope says it was written after webhooks came: nothing is added.
    expect(storedScopes({ scopes: [...fourOld, 'webhooks:read'] })).toEqual([...fourOld, 'webhooks:read']);
    // A scope this version does not know: not a key of the old catalogue, nothing is added.
    expect(storedScopes({ scopes: [...fourOld, 'folders:read'] })).toEqual(fourOld);
  });

  it('gives a key written under today’s catalogue exactly what it stores, the four old scopes included', () => {
    // Act / Assess: the marker decides, not the set of scopes.
    expect(SCOPE_CATALOGUE).toBe(2);
    expect(storedScopes({ scopes: fourOld, scopeCatalogue: SCOPE_CATALOGUE })).toEqual(fourOld);
    expect(storedScopes({ scopes: ['spaces:read'], scopeCatalogue: 2 })).toEqual(['spaces:read']);
    expect(storedScopes({ scopes: [...allScopes], scopeCatalogue: 2 })).toEqual([...allScopes]);
    // Marked but no list (no key is written so): nothing.
    expect(storedScopes({ scopeCatalogue: 2 })).toEqual([]);
    // A newer catalogue's marker is read as this one's; its unknown scopes grant nothing.
    expect(storedScopes({ scopes: [...fourOld, 'tags:read'], scopeCatalogue: 3 })).toEqual(fourOld);
  });

  it('upgrades a key marked with an older catalogue by each later release’s rule', () => {
    // Act / Assess: catalogue 1 had domains and spaces; webhooks came in 2 for keys that held all of 1's.
    expect(scopeReleases.webhooks).toEqual({ catalogue: 2, existingKeys: 'every-scope-holders' });
    expect(storedScopes({ scopes: fourOld, scopeCatalogue: 1 })).toEqual([...allScopes]);
    expect(storedScopes({ scopes: ['domains:read'], scopeCatalogue: 1 })).toEqual(['domains:read']);
  });

  it('declares each collection’s release, the first being 1 and each later one naming who gets its scopes', () => {
    // Assess: versions run 1..SCOPE_CATALOGUE without a gap, so every key's upgrade path is defined.
    const versions = new Set(Object.values(scopeReleases).map((release) => release.catalogue));
    expect([...versions].sort()).toEqual(Array.from({ length: SCOPE_CATALOGUE }, (_, index) => index + 1));
    for (const release of Object.values(scopeReleases)) {
      expect(release.catalogue === 1 || 'existingKeys' in release).toBe(true);
    }
    // The versions are history: unmarked items were written under 1 (domains, spaces) or 2 (webhooks too).
    const at = (version: number) =>
      Object.entries(scopeReleases)
        .filter(([, release]) => release.catalogue === version)
        .map(([collection]) => collection);
    expect([at(1), at(2)]).toEqual([['domains', 'spaces'], ['webhooks']]);
  });
});

describe('lifetimes', () => {
  const now = new Date('2025-03-01T12:00:00.000Z');

  it.each([
    ['90d', 90 * 86_400],
    ['12h', 43_200],
    ['30m', 1_800],
    ['45s', 45],
    ['0h', 0],
  ])('%s is %i seconds', (text, seconds) => {
    // Act / Assess
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each(['', '90', 'd', '1.5h', '-1d', '2w', '1 d', '3D'])('%j is not a duration', (text) => {
    // Act / Assess
    expect(parseDuration(text)).toBeNull();
    expect(() => parseGrace(text)).toThrow(/--grace must be a whole number and a unit/);
  });

  it('--expires-in counts from now; no flag is no expiry', () => {
    // Act / Assess
    expect(expiryFrom({ expiresIn: '30d' }, now)).toBe('2025-03-31T12:00:00.000Z');
    expect(expiryFrom({ expiresIn: '2h' }, now)).toBe('2025-03-01T14:00:00.000Z');
    expect(expiryFrom({}, now)).toBeUndefined();
  });

  it('--expires-at takes a date (midnight UTC) or a date-time with a zone', () => {
    // Act / Assess
    expect(expiryFrom({ expiresAt: '2025-04-01' }, now)).toBe('2025-04-01T00:00:00.000Z');
    expect(expiryFrom({ expiresAt: '2025-04-01T18:30:00Z' }, now)).toBe('2025-04-01T18:30:00.000Z');
    expect(expiryFrom({ expiresAt: '2025-04-01T18:30:00+02:00' }, now)).toBe('2025-04-01T16:30:00.000Z');
  });

  it.each([
    [{ expiresIn: '0d' }, /--expires-in must be a positive whole number/],
    [{ expiresIn: 'soon' }, /--expires-in must be a positive whole number/],
    [{ expiresAt: 'tomorrow' }, /--expires-at must be an ISO 8601 date/],
    [{ expiresAt: '2025-04-01T18:30:00' }, /--expires-at must be an ISO 8601 date/],
    [{ expiresAt: '2025-02-30' }, /--expires-at must be an ISO 8601 date/],
    [{ expiresAt: '2025-13-01T00:00:00Z' }, /--expires-at must be an ISO 8601 date/],
    [{ expiresAt: '2025-02-01' }, /is in the past/],
    [{ expiresIn: '1d', expiresAt: '2026-01-01' }, /not both/],
  ])('refuses %j', (options, message) => {
    // Act / Assess
    expect(() => expiryFrom(options, now)).toThrow(message);
  });

  it('a key expires at its instant; no expiry never; an unreadable one is expired', () => {
    // Act / Assess
    expect(isExpired(undefined, now)).toBe(false);
    expect(isExpired('2025-03-01T12:00:00.001Z', now)).toBe(false);
    expect(isExpired('2025-03-01T12:00:00.000Z', now)).toBe(true);
    expect(isExpired('garbage', now)).toBe(true);
  });
});

describe('last use', () => {
  const now = new Date('2025-03-01T12:00:00.000Z');

  it('is recorded when none is, or when the recorded one is at least the resolution old', () => {
    // Act / Assess
    expect(lastUseIsStale(undefined, now, 3_600)).toBe(true);
    expect(lastUseIsStale('2025-03-01T11:00:00.000Z', now, 3_600)).toBe(true);
    expect(lastUseIsStale('2025-03-01T11:00:00.001Z', now, 3_600)).toBe(false);
    expect(lastUseIsStale('2025-03-01T12:00:00.000Z', now, 0)).toBe(true);
    expect(lastUseIsStale('garbage', now, 3_600)).toBe(true);
  });

  it('has a resolution of an hour', () => {
    // Assess
    expect(LAST_USE_RESOLUTION_SECONDS).toBe(3_600);
  });
});
