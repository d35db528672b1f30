import { createDb } from '#lib/data/dynamodb.ts';
import { pageErrors } from '#lib/domains/api/errors.ts';
import { storeDomainSchemaFor } from '#lib/domains/api/fields.ts';
import { reservedNamesOf } from '#lib/domains/api/name.ts';
import { presentDomain } from '#lib/domains/api/present.ts';
import { type DomainRecord, storeDomain } from '#lib/domains/data/domains.ts';
import { bodyOf } from '#lib/http/body.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { type ApiRequest, answer, created, httpHandler, locationHeaders } from '#lib/http/handler.ts';
import { idempotent } from '#lib/http/idempotency.ts';
import { validate } from '#lib/http/validate.ts';
import type { EdgeHost } from '#lib/kind-module.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, edgeHostOf, loadConfig } from '#lib/platform/config.ts';

/**
 * The answer to a store (its version and where it is), also recorded with the write for a retry with the same
 * Idempotency-Key.
 */
const replyFor = (edge: EdgeHost, request: ApiRequest) => (item: DomainRecord) =>
  created({ data: presentDomain(item, edge) }, { ...etagHeaders(item), ...locationHeaders(request, item.id) });

export const create = (config: Config, db = createDb(config)) => {
  const edge = edgeHostOf(config);
  // The stage's own host names are no customer's: its edge's (`EDGE_HOSTNAME`) and the platform's.
  const schema = storeDomainSchemaFor(reservedNamesOf(edge.edgeHostname));
  return httpHandler(async (request) => {
    const reply = replyFor(edge, request);
    const input = validate(schema, bodyOf(request));
    return answer(await storeDomain(db, request.owner, input, idempotent(request)), reply);
  }, pageErrors);
};

export const handler = atColdStart(create, loadConfig);
