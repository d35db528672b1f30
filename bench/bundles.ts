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
import { build } from 'esbuild';
import {
  type Bundle,
  bundleAll,
  bundleFunction,
  bundleTargets,
  type Contributor,
  contributors,
  INIT_BUDGET_MS,
  SIZE_BUDGET_BYTES,
} from '#infra/bundles.ts';
import { esbuildOptions, projectRoot } from '#infra/bundling.ts';
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
  INIT_BUDGET_MS,
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

/** What a Lambda's environment holds at init (no DynamoDB Local endpoint: the production code path). */
const lambdaEnv = (name: string) => ({
  TABLE_NAME: 'bench-init',
  CURSOR_SECRET: 'bench-init-secret-0123456789abcdef0123456789ab',
  AWS_REGION: 'eu-west-1',
  AWS_ACCESS_KEY_ID: 'AKIDBENCHMARK',
  AWS_SECRET_ACCESS_KEY: 'benchmark',
  AWS_SESSION_TOKEN: 'benchmark',
  AWS_LAMBDA_FUNCTION_NAME: name,
  NODE_OPTIONS: '',
});

/** The import of one module in a fresh process, timed from inside (process start-up is not included). */
async function timeImport(nodePath: string, file: string, env: Record<string, string>) {
  const script = `const t=performance.now();await import(${JSON.stringify(pathToFileURL(file).href)});const ms=performance.now()-t;console.log(JSON.stringify({ms,rss:process.memoryUsage.rss()}))`;
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
  init: Summary;
  /** Resident memory right after the import, median over the processes. */
  rssAfterInitMb: number;
};

export type BaselineResult = { name: string; description: string; bytes: number; init: Summary };

export type BundleSection = {
  node: string;
  processes: number;
  sizeBudgetBytes: number;
  initBudgetMs: number;
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

/** Bundles every function and writes it where section 6 (memory) imports it from. */
export async function writeBundles(): Promise<{ bundles: Bundle[]; files: string[] }> {
  progress(`bundling ${bundleTargets.length} functions`);
  const bundles = await bundleAll();
  const files = bundles.map((bundle) =>
    writeBundle(join(benchDataDir, 'bundles', bundle.name), bundle.code, bundle.map),
  );
  return { bundles, files };
}

export async function benchBundles(): Promise<BundleSection> {
  const node = node24();
  const processes = quick ? 3 : 12;
  const { bundles, files } = await writeBundles();

  // Floors and alternatives, measured the same way in the same run.
  const emptyFile = writeBundle(join(benchDataDir, 'bundles', '_empty'), new TextEncoder().encode('export {};\n'));
  const sdkOnly = await build({
    ...esbuildOptions,
    stdin: { contents: SDK_ONLY, resolveDir: projectRoot, sourcefile: 'sdk-only.mjs', loader: 'js' },
    outfile: join(benchDataDir, 'bundles', '_sdk-only', 'index.mjs'),
    write: false,
    logLevel: 'silent',
  });
  const sdkCode = sdkOnly.outputFiles.find((file) => !file.path.endsWith('.map'))?.contents as Uint8Array;
  const sdkFile = writeBundle(join(benchDataDir, 'bundles', '_sdk-only'), sdkCode);
  const largest = bundles.reduce((a, b) => (b.code.length > a.code.length ? b : a));
  // Not deployed: the same function as CommonJS, where Node built-ins are `require`d instead of imported.
  const cjs = await bundleFunction(largest, {
    format: 'cjs',
    banner: {},
    outfile: join(benchDataDir, 'bundles', '_cjs', 'index.cjs'),
  });
  const cjsFile = writeBundle(join(benchDataDir, 'bundles', '_cjs'), cjs.code, undefined, 'index.cjs');

  const probes = [
    ...bundles.map((bundle, index) => ({ key: bundle.name, file: files[index] as string })),
    { key: '_empty', file: emptyFile },
    { key: '_sdk-only', file: sdkFile },
    { key: '_cjs', file: cjsFile },
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

  const functions = bundles.map((bundle) => {
    const list = contributors(bundle.metafile);
    return {
      name: bundle.name,
      handler: bundle.handler,
      bytes: bundle.code.length,
      deflatedBytes: deflateRawSync(bundle.code, { level: 9 }).length,
      ownBytes: ownBytes(list),
      top: list.slice(0, 5),
      init: initOf(bundle.name),
      rssAfterInitMb: rssOf(bundle.name),
    };
  });
  return {
    node: node.version,
    processes,
    sizeBudgetBytes: SIZE_BUDGET_BYTES,
    initBudgetMs: INIT_BUDGET_MS,
    functions,
    baselines: [
      { name: 'empty module', description: 'import of an empty ES module', bytes: 11, init: initOf('_empty') },
      {
        name: 'SDK client only',
        description: 'DynamoDB document client and GetCommand, same esbuild options',
        bytes: sdkCode.length,
        init: initOf('_sdk-only'),
      },
      {
        name: `${largest.name} as CommonJS`,
        description: 'not deployed: the largest function bundled as CJS (built-ins required, not imported)',
        bytes: cjs.code.length,
        init: initOf('_cjs'),
      },
    ],
    largest: { name: largest.name, top: contributors(largest.metafile).slice(0, 12) },
  };
}
