import { storeDomain } from '#lib/data/domains.ts';
import { created, httpHandler } from '#lib/http/handler.ts';
import { presentDomain } from '#lib/resources.ts';
import { storeDomainSchema } from '#lib/schemas/domains.ts';
import { validate } from '#lib/schemas/validate.ts';

export const handler = httpHandler(async (request) => {
  const input = validate(storeDomainSchema, request.body());
  return created({ data: presentDomain(await storeDomain(request.owner, input)) });
});
