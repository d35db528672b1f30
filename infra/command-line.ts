/**
 * The npm scripts' command lines, read one way: `--help` (`-h`) prints the usage on stdout and nothing starts;
 * an unknown or malformed option prints what is wrong and the usage on stderr (exit code 2), not a stack trace.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

type HelpOption = { help: { type: 'boolean'; short: 'h' } };

export const helpOption: HelpOption = { help: { type: 'boolean', short: 'h' } };

/**
 * The parsed command line, or `undefined` when the script has nothing more to do: the usage was printed for
 * `--help` (exit code 0) or after a wrong option (exit code 2, set on `process.exitCode`). The caller returns.
 */
export function commandLine<T extends ParseArgsConfig & { options: HelpOption }>(
  usage: string,
  config: T,
): ReturnType<typeof parseArgs<T>> | undefined {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exitCode = 2;
    return undefined;
  }
  if ((parsed.values as { help?: boolean }).help) {
    console.log(usage);
    return undefined;
  }
  return parsed;
}
