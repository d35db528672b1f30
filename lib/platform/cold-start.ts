/**
 * What every function module's `handler` export shares, without the settings schema (`lib/platform/config.ts`, which
 * needs valibot): binding the configuration at cold start, and a clear error for a missing setting. The change
 * feed's publisher, which reads one setting, imports only this, and stays a few KB.
 */

import { ConfigError } from '#lib/platform/config-error.ts';

export { ConfigError };

export type Env = Record<string, string | undefined>;

/**
 * The process's environment: the one place lib/ and functions/ read it (a test checks). Lambda's init reads it
 * here (`atColdStart`); everything else is given a configuration.
 */
export const processEnvironment = (): Env => process.env;

/** A host name (RFC 1123 labels, lower case): the edge host name domains point their CNAME at. */
export const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A setting that only some functions need: present in their configuration, or a clear error at cold start. */
export function requiredSetting<Settings, Key extends keyof Settings>(
  config: Partial<Settings>,
  key: Key,
  setting: string,
): NonNullable<Settings[Key]> {
  const value = config[key];
  if (value === undefined) throw new ConfigError(`Invalid configuration: ${setting} is required`);
  return value as NonNullable<Settings[Key]>;
}

/**
 * What showing a domain takes from the stage (`lib/domains/api/present.ts`): a clear error at cold start without the edge
 * host name; the routing endpoint where the stage has a name of its own.
 */
export const edgeHostOf = (config: { edgeHostname?: string; edgeRoutingEndpoint?: string }) => ({
  edgeHostname: requiredSetting(config, 'edgeHostname', 'EDGE_HOSTNAME'),
  ...(config.edgeRoutingEndpoint ? { edgeRoutingEndpoint: config.edgeRoutingEndpoint } : {}),
});

/**
 * Settings a handler takes from its configuration after its module built it: the API handlers' CORS origins,
 * which `httpHandler` (`lib/http/handler.ts`) is not given by the function modules that call it. A handler
 * that has this method is given the configuration it was created with.
 */
export const configure = Symbol('configure');
type Configurable = { [configure]: (config: never) => void };

const isConfigurable = (handler: unknown): handler is Configurable =>
  typeof handler === 'function' && configure in handler;

/**
 * A function module's handler as Lambda's init builds it (`atColdStart`), and the local gateway too: created
 * with the configuration, then given the settings it takes afterwards.
 */
export function configured<Handler, Settings, Rest extends unknown[]>(
  create: (config: Settings, ...rest: Rest) => Handler,
  config: Settings,
  ...rest: Rest
): Handler {
  const handler = create(config, ...rest);
  if (isConfigurable(handler)) handler[configure](config as never);
  return handler;
}

/** Lambda always sets this reserved variable; nothing else in this project does. */
const onLambda = (env: Env) => env.AWS_LAMBDA_FUNCTION_NAME !== undefined;

/**
 * A function module's `handler` export, its settings read by `load`. On Lambda it is bound to the environment's
 * configuration while the module initialises, so a missing setting fails the cold start. Elsewhere nothing is
 * read at import: the local gateway, tests and benchmarks build the handler with the module's own
 * `create(config)`.
 */
export function atColdStart<Handler, Settings>(
  create: (config: Settings) => Handler,
  load: (env: Env) => Settings,
): Handler {
  const env = processEnvironment();
  if (onLambda(env)) return configured(create, load(env));
  return (() => {
    throw new ConfigError('Not on Lambda: build this handler with create(config)');
  }) as Handler;
}

/**
 * The change feed's publisher has no table: its settings are the edge host name and, where the stage has a name
 * of its own, the routing endpoint (the domains it presents).
 */
export type PublisherConfig = { edgeHostname?: string; edgeRoutingEndpoint?: string };

export function loadPublisherConfig(env: Env): PublisherConfig {
  const host = (name: 'EDGE_HOSTNAME' | 'EDGE_ROUTING_ENDPOINT') => {
    const value = env[name]?.trim().toLowerCase();
    if (value && !HOST_NAME.test(value)) throw new ConfigError(`Invalid configuration: ${name} must be a host name`);
    return value || undefined;
  };
  const edgeHostname = host('EDGE_HOSTNAME');
  const edgeRoutingEndpoint = host('EDGE_ROUTING_ENDPOINT');
  return { ...(edgeHostname ? { edgeHostname } : {}), ...(edgeRoutingEndpoint ? { edgeRoutingEndpoint } : {}) };
}
