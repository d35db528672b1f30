/** Wires an API handler: the request it is given, and the middleware stack around it. */
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { MAX_ID } from '#lib/data/keys.ts';
import { RecordedAnswerReplay, type Written } from '#lib/data/outcome.ts';
import { NotAcceptableError, NotFoundError, UnauthenticatedError } from '#lib/http/errors.ts';
import { type Config, configure } from '#lib/platform/config.ts';
import { POSITIVE_INTEGER } from '#lib/platform/integers.ts';
import type { KindErrors } from './data-errors.ts';
import { acceptsJson, header } from './headers.ts';
import { corsResponder, errorResponder, type Reply, replySerializer } from './middleware.ts';

export type ApiRequest = {
  /** Set by the authorizer; never taken from the request itself. */
  owner: string;
  event: APIGatewayProxyEvent;
  /** The `{id}` path parameter; any value that is not a positive decimal integer is a 404. */
  id(): number;
  /** Query parameters; for repeated keys the last value wins. */
  query(): Record<string, string | undefined>;
};

function requestFrom(event: APIGatewayProxyEvent): ApiRequest {
  const owner = event.requestContext?.authorizer?.ownerId;
  if (typeof owner !== 'string' || owner === '') throw new UnauthenticatedError();
  return {
    owner,
    event,
    id() {
      const raw = event.pathParameters?.id ?? '';
      const id = POSITIVE_INTEGER.test(raw) ? Number(raw) : Number.NaN;
      if (!(id <= MAX_ID)) throw new NotFoundError();
      return id;
    },
    query() {
      const multi = event.multiValueQueryStringParameters ?? {};
      const single = event.queryStringParameters ?? {};
      const query: Record<string, string | undefined> = Object.create(null);
      for (const key of new Set([...Object.keys(single), ...Object.keys(multi)])) {
        query[key] = multi[key]?.at(-1) ?? single[key];
      }
      return query;
    },
  };
}

type Headers = Record<string, string>;

export const ok = (body: unknown, headers?: Headers): Reply => ({ statusCode: 200, body, ...(headers && { headers }) });
export const created = (body: unknown, headers?: Headers): Reply => ({
  statusCode: 201,
  body,
  ...(headers && { headers }),
});
/**
 * A created item's `Location` (RFC 9110 §10.2.2): the collection's path as the client called it (stage and base
 * path included, as API Gateway saw it), and the id; a relative reference, which a client resolves against the
 * URL it called, whatever host or proxy it went through.
 */
export const locationHeaders = ({ event }: ApiRequest, id: number) => ({
  Location: `${event.requestContext?.path ?? event.path}/${id}`,
});

export const notModified = (headers: Headers): Reply => ({ statusCode: 304, body: undefined, headers });

/** An answer marked as the replay of a request already done (its idempotency key's). */
const asReplay = (reply: Reply): Reply => ({ ...reply, headers: { ...reply.headers, 'Idempotent-Replayed': 'true' } });

/**
 * The answer to a write, made once its result is known: from the result the write committed, or the one an
 * earlier request with the same idempotency key recorded (then marked as a replay).
 */
export const answer = <Result>(written: Written<Result>, reply: (result: Result) => Reply): Reply =>
  written.replayed ? asReplay(reply(written.result)) : reply(written.result);

/**
 * An API handler: the request, then the middlewares in a fixed order. Middy runs `after` and `onError` in the
 * reverse order of `use`, so the CORS headers (first) are added last, to whatever the serializer or the error
 * responder answered. The CORS origins come from the configuration the handler is created with
 * (`configured` in `lib/platform/config.ts`, which Lambda's init and the local gateway call). `kindErrors` says what the
 * errors of the function's kind mean (`lib/<kind>/api/errors.ts`).
 */
export function httpHandler(handle: (request: ApiRequest) => Promise<Reply>, kindErrors?: KindErrors) {
  const cors = corsResponder();
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(cors)
    .use(errorResponder(kindErrors))
    .use(replySerializer())
    .handler(async (event) => {
      // Every answer is JSON: one the client says it cannot take is refused before anything is done.
      if (!acceptsJson(header(event.headers, 'accept'))) throw new NotAcceptableError();
      const request = requestFrom(event);
      const reply = await handle(request).catch((error) => {
        // A key recorded before records held results: its answer as recorded.
        if (error instanceof RecordedAnswerReplay) return asReplay(error.answer);
        throw error;
      });
      return reply as unknown as APIGatewayProxyResult;
    });
  return Object.assign(handler, { [configure]: (config: Config) => cors.allow(config.corsAllowedOrigins) });
}
