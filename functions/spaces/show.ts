import { showSpace } from '#lib/data/spaces.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentSpace } from '#lib/resources.ts';

export const handler = httpHandler(async (request) =>
  ok({ data: presentSpace(await showSpace(request.owner, request.id())) }),
);
