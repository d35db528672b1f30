/** The list envelope: data, links and meta, with a signed cursor on the way to the next page. */

import type { ResourceRecord } from '#lib/data/item.ts';
import type { ListQuery, ListResult } from '#lib/data/listing.ts';
import type { CursorScope, CursorSigner } from '#lib/http/cursor.ts';
import type { Kind } from '#lib/kinds.ts';
import type { ListParams } from '#lib/schemas/list.ts';
import type { ListEnvelope } from '#lib/schemas/responses.ts';
import type { ApiRequest } from './handler.ts';
import { header } from './headers.ts';

/** The data module's query for these parameters; a cursor overrides `page` and says where to resume. */
export type PageRequest = { query: ListQuery; scope: CursorScope; cursors: CursorSigner };

export function listQueryFor(request: ApiRequest, kind: Kind, params: ListParams, cursors: CursorSigner): PageRequest {
  const scope: CursorScope = {
    owner: request.owner,
    kind,
    sortBy: params.sort_by,
    sort: params.sort,
    search: params.search,
    perPage: params.per_page,
  };
  const query: ListQuery = {
    search: params.search,
    sortBy: params.sort_by,
    sort: params.sort,
    perPage: params.per_page,
    page: params.page,
  };
  if (params.cursor !== undefined) {
    const { page, id, fold } = cursors.decode(scope, params.cursor);
    Object.assign(query, { page, after: { id, fold } });
  }
  return { query, scope, cursors };
}

/** The URL the client called, as API Gateway saw it (stage and base path included). */
export function basePath(request: ApiRequest): string {
  const { event } = request;
  // A client can send its own X-Forwarded-Proto: only `http` is taken from it, anything else is https.
  const forwarded = header(event.headers, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const proto = forwarded === 'http' ? 'http' : 'https';
  const host = header(event.headers, 'host') ?? event.requestContext.domainName;
  return `${proto}://${host}${event.requestContext.path ?? event.path}`;
}

export function listEnvelope<R extends ResourceRecord, Resource>(
  request: ApiRequest,
  params: ListParams,
  { query, scope, cursors }: PageRequest,
  result: ListResult<R>,
  present: (record: R) => Resource,
): ListEnvelope<Resource> {
  const { page, perPage } = query;
  const path = basePath(request);
  const lastPage = Math.max(1, Math.ceil(result.total / perPage));
  const offset = (page - 1) * perPage;
  const { end } = result;
  const hasNext = end !== undefined && offset + result.records.length < result.total;
  const nextCursor = hasNext ? cursors.encode(scope, { page: page + 1, ...end }) : null;

  const link = (target: number, cursor?: string) => {
    const url = new URLSearchParams();
    if (params.search !== '') url.set('search', params.search);
    url.set('search_by', params.search_by);
    url.set('sort_by', params.sort_by);
    url.set('sort', params.sort);
    url.set('per_page', String(perPage));
    url.set('page', String(target));
    if (cursor) url.set('cursor', cursor);
    return `${path}?${url}`;
  };
  const empty = result.records.length === 0;
  return {
    data: result.records.map(present),
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 ? link(Math.min(page - 1, lastPage)) : null,
      next: nextCursor ? link(page + 1, nextCursor) : null,
    },
    meta: {
      current_page: page,
      from: empty ? null : offset + 1,
      last_page: lastPage,
      path,
      per_page: perPage,
      to: empty ? null : offset + result.records.length,
      total: result.total,
      next_cursor: nextCursor,
    },
    status: 200,
  };
}
