import { storeSpace } from '#lib/data/spaces.ts';
import { created, httpHandler } from '#lib/http/handler.ts';
import { presentSpace } from '#lib/resources.ts';
import { storeSpaceSchema } from '#lib/schemas/spaces.ts';
import { validate } from '#lib/schemas/validate.ts';

export const handler = httpHandler(async (request) => {
  const input = validate(storeSpaceSchema, request.body());
  return created({ data: presentSpace(await storeSpace(request.owner, input)) });
});
