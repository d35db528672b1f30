/**
 * One structured entry per event. On Lambda the function's log format is JSON (see `infra/constructs/
 * api-function.ts`): the runtime wraps a single logged object as the `message` of a JSON line and adds the
 * timestamp, level and request id itself, and drops entries below the application log level.
 * Callers pass only what is safe to keep: never a key, an Authorization header or a request body.
 */
export type Level = 'debug' | 'info' | 'warn' | 'error';

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  // One argument: the runtime keeps an object message structured (several would be formatted into a string).
  console[level]({ message, ...fields });
}
