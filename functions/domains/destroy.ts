import { createDb } from '#lib/data/dynamodb.ts';
import { destroyDomain } from '#lib/domains/data/domains.ts';
import { deleted } from '#lib/feed/present.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';

/** The answer to a delete, made from the write's result (a retry with the same Idempotency-Key gets it again, from the recorded result). */
const reply = (item: { id: number }) => ok(deleted('domain', item.id));

export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const id = request.id();
    return answer(await destroyDomain(db, request.owner, id, writeOptions(request)), reply);
  });

export const handler = atColdStart(create, loadConfig);
