import { createDb } from '#lib/data/dynamodb.ts';
import { createCursorSigner } from '#lib/http/cursor.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { parseListQuery } from '#lib/schemas/list.ts';
import { presentSpace } from '#lib/spaces/api/present.ts';
import { listSpaces } from '#lib/spaces/data/spaces.ts';

export const create = (config: Config, db = createDb(config)) => {
  const cursors = createCursorSigner(config);
  return httpHandler(async (request) => {
    const params = parseListQuery(request.query());
    const page = listQueryFor(request, 'space', params, cursors);
    const result = await listSpaces(db, request.owner, page.query);
    return ok(listEnvelope(request, params, page, result, presentSpace));
  });
};

export const handler = atColdStart(create, loadConfig);
