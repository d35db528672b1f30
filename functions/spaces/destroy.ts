import { destroySpace } from '#lib/data/spaces.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { deleted } from '#lib/resources.ts';

export const handler = httpHandler(async (request) => {
  const id = request.id();
  await destroySpace(request.owner, id);
  return ok(deleted('space', id));
});
