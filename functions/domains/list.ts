import { listDomains } from '#lib/data/domains.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { listEnvelope, listQueryFor } from '#lib/http/pagination.ts';
import { presentDomain } from '#lib/resources.ts';
import { parseListQuery } from '#lib/schemas/list.ts';

export const handler = httpHandler(async (request) => {
  const params = parseListQuery(request.query());
  const list = listQueryFor(request, 'domain', params);
  const result = await listDomains(request.owner, list.query);
  return ok(listEnvelope(request, params, list, result, presentDomain));
});
