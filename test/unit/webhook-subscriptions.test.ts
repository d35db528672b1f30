/**
 * Which events a key may have a webhook deliver, without a database: the patterns' collections against the
 * key's read scopes (the feed's rule), the default for a key without every read scope, and the key the
 * authorizer's context names.
 */
import { describe, expect, it } from 'vitest';
import { requestKeyOf } from '#lib/auth/rules/request-key.ts';
import { allScopes } from '#lib/auth/rules/scopes.ts';
import type { Scope } from '#lib/kinds.ts';
import {
  collectionOfEvent,
  EventsBeyondKey,
  readsEvent,
  subscribedPatterns,
  unreadablePatterns,
} from '#lib/webhooks/rules/event-patterns.ts';

const reads = (...collections: string[]) => collections.map((collection) => `${collection}:read`) as Scope[];

describe('what a key may subscribe to', () => {
  it('names the read scopes each pattern needs: its collection’s, or every one for *', () => {
    // Act / Assess
    expect(unreadablePatterns(['domain.*', 'domain.verified', 'space.created', '*'], reads('domains'))).toEqual([
      { pattern: 'space.created', missing: ['spaces:read'] },
      { pattern: '*', missing: ['spaces:read', 'webhooks:read'] },
    ]);
    expect(unreadablePatterns(['*'], allScopes)).toEqual([]);
    // Writing a collection is not reading it.
    expect(unreadablePatterns(['webhook.*'], ['webhooks:write'])).toEqual([
      { pattern: 'webhook.*', missing: ['webhooks:read'] },
    ]);
  });

  it('defaults to every event the key reads: * with every read scope, else each collection’s family', () => {
    // Act / Assess
    expect(subscribedPatterns(undefined, allScopes)).toEqual(['*']);
    expect(subscribedPatterns(undefined, reads('domains', 'spaces', 'webhooks'))).toEqual(['*']);
    expect(subscribedPatterns(undefined, reads('domains', 'webhooks'))).toEqual(['domain.*', 'webhook.*']);
    expect(subscribedPatterns(['space.created'], reads('spaces'))).toEqual(['space.created']);
  });

  it('refuses patterns beyond the key, and a default for a key that reads nothing', () => {
    // Act
    const caught = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error;
      }
      return null;
    };
    const sent = caught(() => subscribedPatterns(['space.*'], reads('domains')));
    const none = caught(() => subscribedPatterns(undefined, ['webhooks:write', 'spaces:write']));
    // Assess
    expect(sent).toBeInstanceOf(EventsBeyondKey);
    expect(sent).toMatchObject({ source: 'sent', unreadable: [{ pattern: 'space.*', missing: ['spaces:read'] }] });
    expect(none).toMatchObject({
      source: 'default',
      unreadable: [{ pattern: '*', missing: ['domains:read', 'spaces:read', 'webhooks:read'] }],
    });
  });

  it('lets a key have an event delivered only if it could read it in the feed', () => {
    // Act / Assess
    expect(collectionOfEvent('domain.verified')).toBe('domains');
    expect(collectionOfEvent('webhook.test')).toBe('webhooks');
    expect(collectionOfEvent('folder.created')).toBeNull();
    expect(readsEvent(reads('domains'), 'domain.created')).toBe(true);
    expect(readsEvent(reads('domains'), 'space.created')).toBe(false);
    expect(readsEvent(['spaces:write'], 'space.created')).toBe(false);
  });
});

describe('the key behind a request', () => {
  it('is read from the authorizer’s context: its scopes and its rotation line', () => {
    // Act / Assess
    expect(
      requestKeyOf({ ownerId: 'acme', scopes: 'domains:read,webhooks:write', keyLineage: 'dsk_AbCdEfGh' }),
    ).toEqual({ lineage: 'dsk_AbCdEfGh', scopes: ['domains:read', 'webhooks:write'] });
    // An answer cached from before lines were passed: no line; one without scopes holds every scope.
    expect(requestKeyOf({ ownerId: 'acme', scopes: 'spaces:read' })).toEqual({
      lineage: null,
      scopes: ['spaces:read'],
    });
    expect(requestKeyOf({ ownerId: 'acme' })).toEqual({ lineage: null, scopes: allScopes });
    expect(requestKeyOf(undefined)).toEqual({ lineage: null, scopes: allScopes });
  });
});
