/**
 * The key behind a request, as the authorizer's context tells it to a function: what it may read (its scopes)
 * and its rotation line (`keyLineage`). A webhook records the line of the key that directed it, so its
 * deliveries can be held to what that key may still read (`lib/webhooks/dispatch.ts`). Pure.
 */
import type { Scope } from '#lib/kinds.ts';
import { allScopes, contextScopes } from './scopes.ts';

export type RequestKey = {
  /** The prefix of the first key of its rotation line; null in an answer made before lines were passed. */
  lineage: string | null;
  scopes: readonly Scope[];
};

/**
 * From `requestContext.authorizer`. An answer without scopes holds every scope (as the feed reads it); one
 * without a line (an answer API Gateway cached from the authorizer before this release, for at most its TTL)
 * records none, as webhooks stored before did.
 */
export function requestKeyOf(context: unknown): RequestKey {
  const fields = (context ?? {}) as { scopes?: unknown; keyLineage?: unknown };
  const lineage = typeof fields.keyLineage === 'string' && fields.keyLineage !== '' ? fields.keyLineage : null;
  return { lineage, scopes: contextScopes(fields.scopes) ?? allScopes };
}
