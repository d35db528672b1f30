/** Where the browser tests find Chromium: Debian's by default, or the executable `CHROMIUM_PATH` names. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

export const chromiumPath = (env: Record<string, string | undefined> = process.env): string =>
  env.CHROMIUM_PATH?.trim() || DEFAULT_CHROMIUM;
