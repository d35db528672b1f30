/**
 * Memory and timeout of every function (API handlers and the authorizer), read by the stack (`stages.ts`) and by
 * the local Lambda emulation (`infra/local/lambda.ts`). Free of aws-cdk-lib, so the local gateway loads it fast.
 *
 * 512 MB: Lambda gives CPU in proportion to memory, and the cold start (loading the bundled SDK) is CPU bound;
 * at 128-256 MB it takes several times longer, while these handlers bill a few tens of milliseconds per warm
 * request, so the larger size costs little.
 * 10 s: the SDK gives up on one DynamoDB call after about 9 s (3 attempts of 1 s connect + 2 s request, see
 * `lib/data/dynamodb.ts`), so a stalled call still becomes the API's 503 instead of a Lambda timeout, well inside
 * API Gateway's 29 s integration limit. The benchmarks measure and may revise both.
 */
export const functionSizing = { memorySize: 512, timeoutSeconds: 10 } as const;

/**
 * Routes whose function needs longer than `functionSizing.timeoutSeconds`, by route name (`lib/routes.ts`).
 *
 * `test-webhook` sends one delivery while the client waits: the attempt alone may take its whole 10 s deadline
 * (`DELIVERY_TIMEOUT_MS`, `lib/webhooks/send.ts`), after the webhook's read and before the attempt's record
 * is written. 25 s leaves a DynamoDB call that stalls after a full attempt the SDK's ~9 s to become the API's 503,
 * and stays under API Gateway's 29 s integration timeout, so the client never gets a 504 for a function still
 * running.
 */
export const routeTimeoutSeconds: Readonly<Record<string, number>> = { 'test-webhook': 25 };

/** A route function's timeout in seconds: its own, or every function's. */
export const timeoutSecondsOf = (route: string): number => routeTimeoutSeconds[route] ?? functionSizing.timeoutSeconds;
