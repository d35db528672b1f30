/**
 * Section 1, bundle and cold start: every function bundled exactly as the CDK stack bundles it (the shared
 * esbuild options and entry points), its minified size and biggest contributors, and the time to import the
 * bundle in a fresh Node 24 process.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { type BuildOptions, build } from 'esbuild';
import {
  type Bundle,
  bundleAll,
  bundleFunction,
  bundleTargets,
  type Contributor,
  contributors,
  INIT_BUDGET_RATIO,
  SIZE_BUDGET_BYTES,
} from '#infra/bundles.ts';
import { esbuildOptions, esmRequireBanner, projectRoot } from '#infra/bundling.ts';
import { benchDataDir, progress, quick, runNode, type Summary, summarize } from './support.ts';

export {
  type Bundle,
  type BundleTarget,
  bundleAll,
  bundleFunction,
  bundleTargets,
  type Contributor,
  contributorOf,
  contributors,
  INIT_BUDGET_RATIO,
  SIZE_BUDGET_BYTES,
} from '#infra/bundles.ts';

/** Our own code (not node_modules) in the bundle. */
const ownBytes = (list: Contributor[]) =>
  list.filter((entry) => !entry.name.includes('@') && entry.name.includes('/')).reduce((sum, e) => sum + e.bytes, 0);

/** The Node 24 binary the project pins (the `node` devDependency), the runtime Lambda's nodejs24.x matches. */
export function node24(): { path: string; version: string } {
  const path = join(projectRoot, 'node_modules', '.bin', 'node');
  const probe = spawnSync(path, ['--version'], { encoding: 'utf8' });
  const version = probe.stdout?.trim() ?? '';
  if (!version.startsWith('v24.')) {
    throw new Error(`Expected Node 24 at ${path} (the node devDependency), got "${version || probe.error}"`);
  }
  return { path, version };
}

/**
 * What a Lambda's environment holds at init (no DynamoDB Local endpoint: the production code path), with every
 * setting some function requires at cold start: the stage's edge host name (the functions that show domains and
 * the change feed's publisher) and the edge sync's store, distribution, connection group and tenant name prefix
 * (`lib/edge/settings.ts`). Nothing is called at init.
 */
const lambdaEnv = (name: string) => ({
  TABLE_NAME: 'bench-init',
  CURSOR_SECRET: 'bench-init-secret-0123456789abcdef0123456789ab',
  EDGE_HOSTNAME: 'edge.bench.example',
  EDGE_KVS_ARN: 'arn:aws:cloudfront::123456789012:key-value-store/bench-init',
  EDGE_DISTRIBUTION_ID: 'EBENCHINIT0000',
  EDGE_CONNECTION_GROUP_ID: 'cg_benchinit0000000000000000',
  EDGE_TENANT_PREFIX: 'bench-init',
  WEBHOOK_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/bench-init',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIDBENCHMARK',
  AWS_SECRET_ACCESS_KEY: 'benchmark',
  AWS_SESSION_TOKEN: 'benchmark',
  AWS_LAMBDA_FUNCTION_NAME: name,
  NODE_OPTIONS: '',
});

/**
 * Modules Lambda's Node.js runtime (its own ES-module entry, whatever the handler's format) has imported before it loads the handler:
 * the HTTP client of the Runtime API and what it needs. Importing them first keeps their cost out of the
 * handler's init, as on Lambda, where the runtime has already paid for them.
 */
export const RUNTIME_MODULES = [
  'node:http',
  'node:https',
  'node:url',
  'node:util',
  'node:fs',
  'node:path',
  'node:module',
  'node:events',
  'node:stream',
  'node:buffer',
  'node:net',
  'node:os',
  'node:crypto',
];

/** The import of one module in a fresh process, timed from inside (process start-up is not included). */
async function timeImport(nodePath: string, file: string, env: Record<string, string>) {
  const preload = `await Promise.all(${JSON.stringify(RUNTIME_MODULES)}.map((name)=>import(name)));`;
  const script = `${preload}const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});const ms=performance.now()-t;console.log(JSON.stringify({ms,rss:process.memoryUsage.rss()}))`;
  const stdout = await runNode(['--input-type=module', '-e', script], env, nodePath);
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as { ms: number; rss: number };
}

export type BundleResult = {
  name: string;
  handler: string;
  bytes: number;
  deflatedBytes: number;
  ownBytes: number;
  top: Contributor[];
  /** Init in the deployed format (`format` in `infra/bundling.ts`). */
  init: Summary;
  /** The same function in the other module format, measured in the same run. */
  alternative: { format: 'esm' | 'cjs'; bytes: number; init: Summary };
  /** Resident memory right after the import, median over the processes. */
  rssAfterInitMb: number;
  /** Its size budget: its target's own, or SIZE_BUDGET_BYTES (absent in results from before: that one). */
  budgetBytes?: number;
  /** A client's request waits for its cold start (a route's function, the authorizer): the init budget is its. */
  requestPath?: boolean;
};

export type BaselineResult = { name: string; description: string; bytes: number; init: Summary };

export type BundleSection = {
  node: string;
  processes: number;
  sizeBudgetBytes: number;
  /** Init of each request-path function ≤ this share of the "SDK client only" module (ESM). */
  initBudgetRatio: number;
  /** The deployed module format, from `infra/bundling.ts`. */
  format: 'esm' | 'cjs';
  functions: BundleResult[];
  baselines: BaselineResult[];
  /** Largest function's contributors in full, for the report. */
  largest: { name: string; top: Contributor[] };
};

function writeBundle(dir: string, code: Uint8Array, map?: Uint8Array, file = 'index.mjs'): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, file);
  writeFileSync(path, code);
  if (map) writeFileSync(`${path}.map`, map);
  return path;
}

const SDK_ONLY = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const get = (Key) => db.send(new GetCommand({ TableName: 't', Key }));
`;

/** The floor below the document client: the low-level client alone, one command. */
const LOW_LEVEL_CLIENT_ONLY = `
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
export const client = new DynamoDBClient({});
export const get = (Key) => client.send(new GetItemCommand({ TableName: 't', Key }));
`;

/** Powertools Logger, measured as a candidate for the functions' logging (not deployed). */
const SDK_WITH_POWERTOOLS_LOGGER = `${SDK_ONLY}
import { Logger } from '@aws-lambda-powertools/logger';
export const logger = new Logger({ serviceName: 'domains-spaces' });
logger.info('ready');
`;

const otherFormat = (format: 'esm' | 'cjs'): 'esm' | 'cjs' => (format === 'esm' ? 'cjs' : 'esm');
/** The options of a format: the ESM banner provides \`require\`, which CommonJS has of its own. */
const formatOptions = (format: 'esm' | 'cjs', dir: string): BuildOptions => ({
  format,
  banner: format === 'esm' ? { js: esmRequireBanner } : {},
  outfile: join(dir, format === 'esm' ? 'index.mjs' : 'index.cjs'),
});
const fileName = (format: 'esm' | 'cjs') => (format === 'esm' ? 'index.mjs' : 'index.cjs');
/**
 * Where section 1 writes each deployed bundle (section 6 reads them there): named for its format, since this
 * tree's package.json makes a plain `.js` an ES module.
 */
export const deployedBundleFile = fileName(esbuildOptions.format);

/** Bundles every function and writes it where section 6 (memory) imports it from. */
export async function writeBundles(): Promise<{ bundles: Bundle[]; files: string[] }> {
  progress(`bundling ${bundleTargets.length} functions`);
  const bundles = await bundleAll();
  const files = bundles.map((bundle) =>
    writeBundle(join(benchDataDir, 'bundles', bundle.name), bundle.code, bundle.map, deployedBundleFile),
  );
  return { bundles, files };
}

export async function benchBundles(): Promise<BundleSection> {
  const node = node24();
  const processes = quick ? 3 : 12;
  const { bundles, files } = await writeBundles();

  // Floors and alternatives, measured the same way in the same run.
  const emptyFile = writeBundle(join(benchDataDir, 'bundles', '_empty'), new TextEncoder().encode('export {};\n'));
  const snippet = async (key: string, contents: string, format: 'esm' | 'cjs' = 'esm') => {
    const dir = join(benchDataDir, 'bundles', key);
    const result = await build({
      ...esbuildOptions,
      ...formatOptions(format, dir),
      stdin: { contents, resolveDir: projectRoot, sourcefile: `${key}.mjs`, loader: 'js' },
      sourcemap: false,
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles?.find((file) => !file.path.endsWith('.map'))?.contents as Uint8Array;
    return { key, bytes: code.length, file: writeBundle(dir, code, undefined, fileName(format)) };
  };
  const baselineModules = [
    {
      ...(await snippet('_sdk-only', SDK_ONLY)),
      name: 'SDK client only',
      description: 'DynamoDB document client and GetCommand, ESM, same esbuild options',
    },
    {
      ...(await snippet('_sdk-only-cjs', SDK_ONLY, 'cjs')),
      name: 'SDK client only, CommonJS',
      description: 'the same module as CommonJS',
    },
    {
      ...(await snippet('_low-level', LOW_LEVEL_CLIENT_ONLY)),
      name: 'low-level client only',
      description: 'DynamoDBClient and GetItemCommand without the document client, ESM: the floor of the mandated SDK',
    },
    {
      ...(await snippet('_powertools', SDK_WITH_POWERTOOLS_LOGGER)),
      name: 'SDK client + Powertools Logger',
      description: 'SDK client only plus a Powertools Logger and one entry (candidate, not deployed)',
    },
  ];
  const largest = bundles.reduce((a, b) => (b.code.length > a.code.length ? b : a));
  // Every function in the other module format too, so the deployed format is chosen by measurement.
  const format = esbuildOptions.format;
  const alternatives = await Promise.all(
    bundles.map(async (bundle) => {
      const dir = join(benchDataDir, 'bundles', `_${otherFormat(format)}`, bundle.name);
      const built = await bundleFunction(bundle, formatOptions(otherFormat(format), dir));
      return {
        name: bundle.name,
        bytes: built.code.length,
        file: writeBundle(dir, built.code, undefined, fileName(otherFormat(format))),
      };
    }),
  );

  const probes = [
    ...bundles.map((bundle, index) => ({ key: bundle.name, file: files[index] as string })),
    ...alternatives.map((alternative) => ({ key: `${alternative.name}:alt`, file: alternative.file })),
    { key: '_empty', file: emptyFile },
    ...baselineModules.map((module) => ({ key: module.key, file: module.file })),
  ];
  const samples = new Map<string, { ms: number[]; rss: number[] }>(
    probes.map((probe) => [probe.key, { ms: [], rss: [] }]),
  );
  progress(`module init: ${probes.length} modules x ${processes} fresh processes (${node.version})`);
  // Round-robin, so background noise spreads over every module rather than landing on one.
  for (let round = 0; round < processes; round++) {
    for (const probe of probes) {
      const { ms, rss } = await timeImport(node.path, probe.file, lambdaEnv(probe.key));
      samples.get(probe.key)?.ms.push(ms);
      samples.get(probe.key)?.rss.push(rss);
    }
  }
  const initOf = (key: string) => summarize(samples.get(key)?.ms ?? []);
  const rssOf = (key: string) => summarize(samples.get(key)?.rss ?? []).median / 2 ** 20;

  const functions = bundles.map((bundle, index) => {
    const list = contributors(bundle.metafile);
    const alternative = alternatives[index] as { bytes: number };
    return {
      name: bundle.name,
      handler: bundle.handler,
      bytes: bundle.code.length,
      deflatedBytes: deflateRawSync(bundle.code, { level: 9 }).length,
      ownBytes: ownBytes(list),
      top: list.slice(0, 5),
      init: initOf(bundle.name),
      alternative: { format: otherFormat(format), bytes: alternative.bytes, init: initOf(`${bundle.name}:alt`) },
      rssAfterInitMb: rssOf(bundle.name),
      // A target may carry a budget of its own (`budgetBytes`, optional); read so either shape of BundleTarget compiles.
      budgetBytes: (bundle as { budgetBytes?: number }).budgetBytes ?? SIZE_BUDGET_BYTES,
      requestPath: bundle.requestPath === true,
    };
  });
  return {
    node: node.version,
    processes,
    sizeBudgetBytes: SIZE_BUDGET_BYTES,
    initBudgetRatio: INIT_BUDGET_RATIO,
    format,
    functions,
    baselines: [
      { name: 'empty module', description: 'import of an empty ES module', bytes: 11, init: initOf('_empty') },
      ...baselineModules.map((module) => ({
        name: module.name,
        description: module.description,
        bytes: module.bytes,
        init: initOf(module.key),
      })),
    ],
    largest: { name: largest.name, top: contributors(largest.metafile).slice(0, 12) },
  };
}
