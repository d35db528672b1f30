import { presentAccount } from '#lib/account/api/account.ts';
import { readAccount } from '#lib/account/data/account.ts';
import { keyFactsOf, requestKeyOf } from '#lib/auth/rules/request-key.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { contentRepresentation } from '#lib/http/conditional.ts';
import { httpHandler } from '#lib/http/handler.ts';
import { atColdStart } from '#lib/platform/cold-start.ts';
import { type Config, loadConfig } from '#lib/platform/config.ts';

/** The owner's plan and usage (one round trip), and the calling key's facts from the authorizer's context. */
export const create = (config: Config, db = createDb(config)) =>
  httpHandler(async (request) => {
    const account = await readAccount(db, request.owner);
    const context = request.event.requestContext?.authorizer;
    const body = { data: presentAccount(account, requestKeyOf(context), keyFactsOf(context)) };
    return contentRepresentation(request, body);
  });

export const handler = atColdStart(create, loadConfig);
