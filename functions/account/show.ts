import { keyFactsOf, requestKeyOf } from '#lib/auth/request-key.ts';
import { atColdStart, type Config } from '#lib/config.ts';
import { readAccount } from '#lib/data/account.ts';
import { createDb } from '#lib/dynamodb.ts';
import { contentRepresentation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { presentAccount } from '#lib/resources/account.ts';

/** The owner's plan and usage (one round trip), and the calling key's facts from the authorizer's context. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const account = await readAccount(db, request.owner);
    const context = request.event.requestContext?.authorizer;
    const body = { data: presentAccount(account, requestKeyOf(context), keyFactsOf(context)) };
    return contentRepresentation(request, body);
  });

export const handler = atColdStart(create);
