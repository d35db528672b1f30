/**
 * A webhook's attempts, one page at a time: `per_page` as on the other lists, and a signed cursor carrying
 * where the page ended (the last attempt's position), valid only for this owner, webhook and page size.
 */
import type { CursorScope, CursorSigner } from '#lib/http/cursor.ts';
import type { ApiRequest } from '#lib/http/handler.ts';
import { basePath } from '#lib/http/pagination.ts';
import type { ListParams } from '#lib/schemas/list.ts';

export function deliveryPage(request: ApiRequest, webhookId: number, params: ListParams, cursors: CursorSigner) {
  const perPage = params.per_page;
  const scope: CursorScope = {
    owner: request.owner,
    kind: `webhook-deliveries:${webhookId}`,
    sortBy: 'created_at',
    sort: 'desc',
    search: '',
    perPage,
  };
  const after = params.cursor === undefined ? undefined : cursors.decode(scope, params.cursor).fold;
  const path = basePath(request);
  const link = (cursor?: string) =>
    `${path}?${new URLSearchParams({ per_page: String(perPage), ...(cursor ? { cursor } : {}) })}`;
  return {
    query: { perPage, ...(after === undefined ? {} : { after }) },
    /** The list envelope of a page of attempts; `next` is where the following page starts. */
    envelope: <Item>(data: Item[], next: string | undefined) => {
      const nextCursor = next === undefined ? null : cursors.encode(scope, { page: 0, id: 0, fold: next });
      return {
        data,
        links: { first: link(), next: nextCursor ? link(nextCursor) : null },
        meta: { path, per_page: perPage, next_cursor: nextCursor },
        status: 200 as const,
      };
    },
  };
}
