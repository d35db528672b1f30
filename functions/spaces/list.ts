import { listSpaces } from '#lib/data/spaces.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { presentSpace } from '#lib/resources.ts';
import { parseListQuery } from '#lib/schemas/list.ts';

export const handler = httpHandler(async (request) => {
  const params = parseListQuery(request.query());
  const list = listQueryFor(request, 'space', params);
  const result = await listSpaces(request.owner, list.query);
  return ok(listEnvelope(request, params, list, result, presentSpace));
});
