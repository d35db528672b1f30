import { createDb } from '#lib/data/dynamodb.ts';
import { etagHeaders } from '#lib/http/conditional.ts';
import { answer, httpHandler, ok } from '#lib/http/handler.ts';
import { writeOptions } from '#lib/http/idempotency.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';
import { presentWithSecret } from '#lib/webhooks/api/present.ts';
import { rotateSecret, type WebhookWithSecret } from '#lib/webhooks/data/webhooks.ts';

/** The new secret, shown this once (a retry with the same Idempotency-Key gets the same one, not another). */
const reply = ({ webhook }: WebhookWithSecret) => ok({ data: presentWithSecret(webhook) }, etagHeaders(webhook));

/** No body. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) =>
    answer(await rotateSecret(db, request.owner, request.id(), writeOptions(request)), reply),
  );

export const handler = atColdStart(create, loadConfig);
