import { createDb } from '#lib/data/dynamodb.ts';
import { presentDomain } from '#lib/domains/api/present.ts';
import { showDomain } from '#lib/domains/data/domains.ts';
import { representation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, edgeHostOf, loadConfig } from '#lib/platform/config.ts';

export const create = (config: Config, db = createDb(config)) => {
  const edge = edgeHostOf(config);
  return httpHandler(async (request) => {
    const item = await showDomain(db, request.owner, request.id());
    return representation(request, item, () => ({ data: presentDomain(item, edge) }));
  });
};

export const handler = atColdStart(create, loadConfig);
