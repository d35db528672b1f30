/** The change feed's query and envelope, and which events a key's scopes let it see. */
import { contextScopes } from '#lib/auth/rules/scopes.ts';
import type { EventPage, EventQuery } from '#lib/data/events.ts';
import { presentEvent } from '#lib/feed/present.ts';
import type { EventList } from '#lib/feed/schemas.ts';
import type { ApiRequest } from '#lib/http/handler.ts';
import { basePath } from '#lib/http/pagination.ts';
import type { EdgeHost } from '#lib/kind-module.ts';
import { type Collection, collections } from '#lib/kinds.ts';
import { type EventParams, encodeFeedCursor } from '#lib/schemas/events.ts';

/**
 * The event types a key may see: those of the collections it may read, from the scopes the authorizer passed;
 * an answer without scopes holds every scope.
 */
function readablePrefixes(request: ApiRequest): string[] | null {
  const granted = contextScopes(request.event.requestContext?.authorizer?.scopes);
  if (granted === null) return null;
  return (Object.keys(collections) as Collection[])
    .filter((collection) => granted.includes(`${collection}:read`))
    .map((collection) => `${collections[collection].kind}.`);
}

/** The data layer's query: after, page size, and the type prefixes an event must match (scopes, `type`). */
export function eventQueryFor(request: ApiRequest, params: EventParams): EventQuery {
  const readable = readablePrefixes(request);
  const types = [...(readable ? [readable] : []), ...(params.type === '' ? [] : [[params.type]])];
  return { after: params.after, perPage: params.per_page, types };
}

export function eventEnvelope(request: ApiRequest, params: EventParams, page: EventPage, edge: EdgeHost): EventList {
  const path = basePath(request);
  const link = (after?: string) => {
    const query = new URLSearchParams();
    if (after !== undefined) query.set('after', after);
    query.set('per_page', String(params.per_page));
    if (params.type !== '') query.set('type', params.type);
    return `${path}?${query}`;
  };
  return {
    data: page.events.map((event) => presentEvent(event, edge)),
    links: { first: link(), next: link(encodeFeedCursor(page.next)) },
    meta: { path, per_page: params.per_page, has_more: page.more },
    status: 200,
  };
}
