import { atColdStart, type Config, edgeHostOf } from '#lib/config.ts';
import { createCursorSigner } from '#lib/cursor.ts';
import { listDomains } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { presentDomain } from '#lib/resources/domains/present.ts';
import { parseListQuery } from '#lib/schemas/list.ts';

export const create = (config: Config, db = createDb(config)) => {
  const cursors = createCursorSigner(config);
  const edge = edgeHostOf(config);
  return httpHandler(async (request) => {
    const params = parseListQuery(request.query());
    const page = listQueryFor(request, 'domain', params, cursors);
    const result = await listDomains(db, request.owner, page.query);
    return ok(listEnvelope(request, params, page, result, (item) => presentDomain(item, edge)));
  });
};

export const handler = atColdStart(create);
