import { createDb } from '#lib/data/dynamodb.ts';
import { presentDomain } from '#lib/domains/api/present.ts';
import { listDomains } from '#lib/domains/data/domains.ts';
import { createCursorSigner } from '#lib/http/cursor.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, edgeHostOf, loadConfig } from '#lib/platform/config.ts';
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

export const handler = atColdStart(create, loadConfig);
