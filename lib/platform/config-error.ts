/** A setting that is missing or bad: the message names it. On the ground floor, for every parser of settings. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
