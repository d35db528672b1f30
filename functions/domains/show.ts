import { atColdStart, type Config, edgeHostOf } from '#lib/config.ts';
import { showDomain } from '#lib/data/domains.ts';
import { createDb } from '#lib/dynamodb.ts';
import { representation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { presentDomain } from '#lib/resources/domains/present.ts';

export const create = (config: Config, db = createDb(config)) => {
  const edge = edgeHostOf(config);
  return httpHandler(async (request) => {
    const item = await showDomain(db, request.owner, request.id());
    return representation(request, item, () => ({ data: presentDomain(item, edge) }));
  });
};

export const handler = atColdStart(create);
