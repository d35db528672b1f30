/**
 * `--help` on every npm script that runs one of our files (`tsx <file>` in package.json): the usage and its
 * options on stdout, exit code 0, and nothing started. A probe loaded into every Node process of the run
 * (`NODE_OPTIONS=--import`) records each TCP listen, UDP bind and Java (or Docker) process; the data folder
 * (DATA_DIR) must not be created. A wrong option answers the usage on stderr, exit code 2, no stack trace,
 * and starts nothing either.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '#infra/bundling.ts';

const scripts = Object.entries(
  JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).scripts as Record<string, string>,
)
  .map(([name, command]) => ({ name, file: /^tsx (\S+)$/.exec(command)?.[1] }))
  .filter((script): script is { name: string; file: string } => !!script.file);

const PROBE = `
import { appendFileSync } from 'node:fs';
import childProcess from 'node:child_process';
import dgram from 'node:dgram';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';
const record = (what) => appendFileSync(process.env.HELP_PROBE_LOG, process.pid + ' ' + what + '\\n');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first] = args;
  // A named pipe or Unix socket (tsx talks to its child over one) is not a port.
  const pipe = (typeof first === 'string' && !/^\\d+$/.test(first)) || (typeof first === 'object' && first?.path);
  if (!pipe) record('listen ' + JSON.stringify(args.filter((arg) => typeof arg !== 'function')));
  return listen.apply(this, args);
};
const bind = dgram.Socket.prototype.bind;
dgram.Socket.prototype.bind = function (...args) {
  record('udp bind ' + JSON.stringify(args.filter((arg) => typeof arg !== 'function')));
  return bind.apply(this, args);
};
for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync']) {
  const original = childProcess[name];
  childProcess[name] = function (command, ...rest) {
    if (/(^|[\\/\\s])(java|docker)(\\s|$)/.test(String(command))) record(name + ' ' + command);
    return original.call(this, command, ...rest);
  };
}
syncBuiltinESMExports();
`;

const workDir = mkdtempSync(join(tmpdir(), 'script-help-'));
const probe = join(workDir, 'probe.mjs');

type Outcome = { code: number; stdout: string; stderr: string; started: string[]; dataDirCreated: boolean };

/** `npx tsx <file> <args>` from the project, with the probe, a data folder that does not exist, and fixed ports. */
function run(key: string, file: string, args: string[]): Promise<Outcome> {
  const log = join(workDir, `${key}.log`);
  const dataDir = join(workDir, `${key}-data`);
  writeFileSync(log, '');
  const env = {
    ...process.env,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${pathToFileURL(probe).href}`.trim(),
    HELP_PROBE_LOG: log,
    DATA_DIR: dataDir,
  };
  return new Promise((resolve) => {
    execFile('npx', ['tsx', file, ...args], { cwd: projectRoot, env, timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      const started = readFileSync(log, 'utf8').split('\n').filter(Boolean);
      resolve({ code, stdout, stderr, started, dataDirCreated: existsSync(dataDir) });
    });
  });
}

/** Runs the jobs two at a time (the machine has two cores, shared with the other suites). */
async function bounded<T>(jobs: (() => Promise<T>)[], width = 2): Promise<T[]> {
  const results: T[] = new Array(jobs.length);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const index = next++;
      results[index] = await (jobs[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

const help = new Map<string, Outcome>();
const wrong = new Map<string, Outcome>();

beforeAll(async () => {
  writeFileSync(probe, PROBE);
  const jobs = scripts.flatMap(({ name, file }) => {
    const key = name.replace(/\W/g, '-');
    return [
      async () => help.set(name, await run(`${key}-help`, file, ['--help'])),
      async () => wrong.set(name, await run(`${key}-wrong`, file, ['--no-such-option'])),
    ];
  });
  await bounded(jobs);
}, 300_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** How the usage names the script: `npm start`, `npm run keys`, `npm run --silent keys`. */
const invocation = (name: string) =>
  name === 'start' ? /npm start/ : new RegExp(`npm run (--silent )?${name.replace(':', '\\:')}`);

describe('--help on the npm scripts', () => {
  it('covers the scripts this project runs with tsx', () => {
    expect(scripts.map((script) => script.name)).toEqual(
      expect.arrayContaining([
        'start',
        'keys',
        'dns',
        'feed:epoch',
        'domains:backfill-checks',
        'loadtest',
        'openapi',
        'bench',
        'fuzz',
      ]),
    );
  });

  it.each(scripts)('$name ($file): prints its usage and options, exits 0, starts nothing', ({ name }) => {
    const outcome = help.get(name) as Outcome;
    // Assess
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
    expect({ code: outcome.code, started: outcome.started, dataDirCreated: outcome.dataDirCreated }).toEqual({
      code: 0,
      started: [],
      dataDirCreated: false,
    });
    expect(outcome.stdout).toMatch(/^Usage:/);
    expect(outcome.stdout).toMatch(invocation(name));
    expect(outcome.stdout).toMatch(/^Options:$/m);
    expect(outcome.stdout).toContain('-h, --help');
  });

  it.each(scripts)(
    '$name ($file): answers an unknown option with the usage, exit code 2, starts nothing',
    ({ name }) => {
      const outcome = wrong.get(name) as Outcome;
      // Assess
      expect(outcome.stderr).toContain("Unknown option '--no-such-option'");
      expect(outcome.stderr).toContain('Usage:');
      expect(outcome.stderr).not.toMatch(/\n\s+at /);
      expect(outcome.stdout).toBe('');
      expect({ code: outcome.code, started: outcome.started, dataDirCreated: outcome.dataDirCreated }).toEqual({
        code: 2,
        started: [],
        dataDirCreated: false,
      });
    },
  );
});
