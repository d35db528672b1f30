import { atColdStart, type Config } from '#lib/config.ts';
import { createCursorSigner } from '#lib/cursor.ts';
import { listSpaces } from '#lib/data/spaces.ts';
import { createDb } from '#lib/dynamodb.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { presentSpace } from '#lib/resources/spaces/present.ts';
import { parseListQuery } from '#lib/schemas/list.ts';

export const create = (config: Config, db = createDb(config)) => {
  const cursors = createCursorSigner(config);
  return httpHandler(async (request) => {
    const params = parseListQuery(request.query());
    const page = listQueryFor(request, 'space', params, cursors);
    const result = await listSpaces(db, request.owner, page.query);
    return ok(listEnvelope(request, params, page, result, presentSpace));
  });
};

export const handler = atColdStart(create);
