import { showDomain } from '#lib/data/domains.ts';
import { httpHandler, ok } from '#lib/http/handler.ts';
import { presentDomain } from '#lib/resources.ts';

export const handler = httpHandler(async (request) =>
  ok({ data: presentDomain(await showDomain(request.owner, request.id())) }),
);
