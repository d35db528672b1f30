import { destroyDomain } from '#lib/data/domains.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { deleted } from '#lib/resources.ts';

export const handler = httpHandler(async (request) => {
  const id = request.id();
  await destroyDomain(request.owner, id);
  return ok(deleted('domain', id));
});
