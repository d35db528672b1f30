/**
 * `npm run bench`: the performance suite of docs/performance.md. Bundles every function (section 1) here,
 * starts its own DynamoDB Local (data kept in .bench-data/ so the seeded collections are reused), runs the
 * other sections each in a fresh process, then writes bench/results/latest.json, the report and its charts.
 * BENCH_QUICK=1 shrinks everything and writes to .bench-data/quick/ instead; BENCH_SECTIONS picks sections;
 * `npm run bench -- --help` prints both and the sections.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DeleteTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { projectRoot } from '#infra/bundling.ts';
import { ensureTable, localClient, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { benchBundles, writeBundles } from './bundles.ts';
import {
  type Baseline,
  bundleChart,
  contentionChart,
  type LambdaSettings,
  type Results,
  renderReport,
  scaleChart,
} from './report.ts';
import { benchDataDir, machine, progress, quick, runSection } from './support.ts';

const allSections = [
  'bundles',
  'handlers',
  'scale',
  'e2e',
  'memory',
  'contention',
  'edge',
  'webhooks',
  'edge-scale',
] as const;
type Section = (typeof allSections)[number];
/** What each section measures, for `--help`. */
const sectionHelp = {
  bundles: '1. bundle size and module init of every function (writes the bundles memory uses)',
  handlers: '2-3. handler overhead, capacity units and round trips per operation',
  scale: '4. list latency with 10, 1,000 and 100,000 spaces (seeded once, kept in .bench-data/)',
  e2e: '5. end to end through the local gateway against bare DynamoDB calls',
  memory: '6. peak RSS of each bundled function, invoked warm',
  contention: '7. 1, 5 and 20 concurrent writers on one owner and on their own owners, through the harness',
  edge: "8. the edge function's time per request, the sync lag, CNAME to active, the sync's time per event",
  webhooks: '9. webhook delivery lag (1 and 20 endpoints), write latency with 0 and 20, retries to a failing receiver',
  'edge-scale':
    '10. the edge at 100,000 domains through the local CloudFront (about an hour on 2 cores; its own DynamoDB Local)',
} as const satisfies Record<Section, string>;

const usage = `Usage: npm run bench [-- --help]

Measures the performance suite, then rewrites docs/performance.md, its charts and bench/results/latest.json.
Starts its own DynamoDB Local (Java 17+); needs nothing else running. Measure on a quiet machine.

Options:
  -h, --help            print this help and exit

Sections, in the order they run (all by default):
${allSections.map((name) => `  ${name.padEnd(11)} ${sectionHelp[name]}`).join('\n')}

Environment:
  BENCH_SECTIONS=a,b    only these sections; the others keep their last figures in the report
  BENCH_SECTIONS=report measure nothing: render the report again from the last results
  BENCH_QUICK=1         reduced sizes and durations, to check the suite; writes to .bench-data/quick/
  BENCH_SCALE_SIZES=10,1000  the scale section's collection sizes
  EDGE_BENCH_DOMAINS=N  the edge-scale section's domains (100,000; 2,000 quick), in bursts of EDGE_BENCH_BURST

Examples:
  npm run bench
  BENCH_SECTIONS=contention npm run bench
  BENCH_SECTIONS=edge npm run bench
  BENCH_SECTIONS=webhooks npm run bench
  BENCH_SECTIONS=edge-scale npm run bench
  EDGE_BENCH_DOMAINS=20000 BENCH_SECTIONS=edge-scale npm run bench
  BENCH_QUICK=1 BENCH_SECTIONS=bundles,scale npm run bench
`;
// Before anything is measured or started: `--help` prints the usage; anything else is a mistake (exit 2).
for (const arg of process.argv.slice(2)) {
  if (arg === '--help' || arg === '-h') {
    process.stdout.write(usage);
    process.exit(0);
  }
  process.stderr.write(`Unknown option '${arg}'\n\n${usage}`);
  process.exit(2);
}

/** Where each section keeps its result in Results. */
const resultKey = {
  bundles: 'bundles',
  handlers: 'handlers',
  scale: 'scale',
  e2e: 'endToEnd',
  memory: 'memory',
  contention: 'contention',
  edge: 'edge',
  webhooks: 'webhooks',
  'edge-scale': 'edgeScale',
} as const satisfies Record<Section, keyof Results>;
/** `BENCH_SECTIONS=report` measures nothing and renders the report again from the last results. */
const renderOnly = process.env.BENCH_SECTIONS === 'report';
const selected = new Set<Section>(
  renderOnly
    ? []
    : ((process.env.BENCH_SECTIONS?.split(',').map((name) => name.trim()) as Section[] | undefined) ?? allSections),
);
for (const name of selected) {
  if (allSections.includes(name)) continue;
  process.stderr.write(`Unknown section '${name}' in BENCH_SECTIONS: use ${allSections.join(',')} or report\n`);
  process.exit(2);
}

/** The persisted table holding the seeded collections, and the one recreated empty on every run. */
const SCALE_TABLE = 'bench-scale';
const RUN_TABLE = 'bench-run';
/** The edge section's own table, recreated empty: its local stack's follower scans the whole table. */
const EDGE_TABLE = 'bench-edge';
/** The webhooks section's own table, recreated empty: its follower of the change feed scans the whole table. */
const WEBHOOKS_TABLE = 'bench-webhooks';
/** The CNAME target the domain functions show (`EDGE_HOSTNAME`); any host name does here, as for `npm start`. */
const BENCH_EDGE_HOSTNAME = 'edge.localhost';

/** The stack's function memory size and authorizer cache, read from infra/stages.ts when it exists. */
async function lambdaSettings(): Promise<LambdaSettings> {
  try {
    const { stages } = await import('#infra/stages.ts');
    return {
      memorySizeMb: stages.prod.functions.memorySize,
      authorizerCacheTtlSeconds: stages.prod.api.authorizerCacheTtl.toSeconds(),
      source: '`infra/stages.ts`, `functions.memorySize`, both stages',
    };
  } catch (error) {
    progress(`infra/stages.ts not readable (${(error as Error).message}); reporting a recommendation instead`);
    return { memorySizeMb: null, authorizerCacheTtlSeconds: null, source: 'not configured' };
  }
}

async function recreateTable(endpoint: string, tableName: string) {
  const client = localClient(endpoint);
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  } finally {
    client.destroy();
  }
  await ensureTable(endpoint, tableName);
}

async function main() {
  const started = Date.now();
  const outDir = quick ? join(benchDataDir, 'quick') : join(projectRoot, 'bench', 'results');
  const docsDir = quick ? join(benchDataDir, 'quick') : join(projectRoot, 'docs');
  const lambda = await lambdaSettings();
  const generatedAt = new Date().toISOString();
  const thisMachine = machine();
  const measuredOn: NonNullable<Results['measuredOn']> = {};
  const results: Results = {
    generatedAt,
    quick,
    durationSeconds: 0,
    machine: thisMachine,
    lambda,
    measuredAt: {},
    measuredOn,
  };
  for (const section of selected) {
    results.measuredAt[section] = generatedAt;
    measuredOn[section] = thisMachine;
  }
  // A partial run keeps the other sections' previous figures, each labelled with when it was measured.
  const resultsFile = join(outDir, 'latest.json');
  if (selected.size < allSections.length && existsSync(resultsFile)) {
    const previous = JSON.parse(readFileSync(resultsFile, 'utf8')) as Results;
    for (const section of allSections) {
      if (selected.has(section) || !previous[resultKey[section]]) continue;
      Object.assign(results, { [resultKey[section]]: previous[resultKey[section]] });
      results.measuredAt[section] = previous.measuredAt?.[section] ?? previous.generatedAt;
      measuredOn[section] = previous.measuredOn?.[section] ?? previous.machine;
    }
    if (renderOnly) {
      const { generatedAt: at, machine: previousMachine, durationSeconds } = previous;
      Object.assign(results, { generatedAt: at, machine: previousMachine, durationSeconds });
    }
  }
  progress(`machine: ${results.machine.cpuModel}, ${results.machine.nproc} CPUs, Node ${results.machine.node}`);

  // Section 1 first: it also writes the bundles that section 6 runs.
  if (selected.has('bundles')) results.bundles = await benchBundles();
  else if (selected.has('memory')) await writeBundles();

  const needsDatabase = ['handlers', 'scale', 'e2e', 'memory', 'contention', 'edge', 'webhooks'].some((name) =>
    selected.has(name as Section),
  );
  if (needsDatabase) {
    // A quick run keeps its own (small) data, leaving the full run's seeded collections alone.
    const dataDir = join(quick ? join(benchDataDir, 'quick') : benchDataDir, 'dynamodb');
    const dynamo = await startDynamoDbLocal({ dataDir });
    progress(`DynamoDB Local on ${dynamo.endpoint}, data in ${relative(projectRoot, dataDir)}`);
    try {
      await recreateTable(dynamo.endpoint, RUN_TABLE);
      await ensureTable(dynamo.endpoint, SCALE_TABLE);
      const env = (tableName: string) => ({
        DYNAMODB_ENDPOINT: dynamo.endpoint,
        TABLE_NAME: tableName,
        CURSOR_SECRET: randomBytes(32).toString('base64url'),
        AWS_REGION: 'local',
        // The functions that show domains need the stage's edge host name at cold start (lib/routes.ts).
        EDGE_HOSTNAME: BENCH_EDGE_HOSTNAME,
        BENCH_AUTH_CACHE_TTL: String(lambda.authorizerCacheTtlSeconds ?? 300),
      });
      if (selected.has('handlers')) results.handlers = await runSection('handlers.ts', env(RUN_TABLE));
      if (selected.has('scale')) results.scale = await runSection('scale.ts', env(SCALE_TABLE));
      if (selected.has('e2e')) results.endToEnd = await runSection('e2e.ts', env(RUN_TABLE));
      if (selected.has('memory')) results.memory = await runSection('memory.ts', env(RUN_TABLE));
      if (selected.has('contention')) results.contention = await runSection('contention.ts', env(RUN_TABLE));
      if (selected.has('edge')) {
        await recreateTable(dynamo.endpoint, EDGE_TABLE);
        results.edge = await runSection('edge.ts', env(EDGE_TABLE));
      }
      if (selected.has('webhooks')) {
        await recreateTable(dynamo.endpoint, WEBHOOKS_TABLE);
        results.webhooks = await runSection('webhooks.ts', env(WEBHOOKS_TABLE));
      }
      await recreateTable(dynamo.endpoint, RUN_TABLE);
    } finally {
      await dynamo.stop();
    }
  }
  // Section 10 starts a DynamoDB Local of its own, in memory: a 100,000-domain table is not worth keeping.
  if (selected.has('edge-scale')) results.edgeScale = await runSection('edge/scale.ts', {});
  if (!renderOnly) results.durationSeconds = (Date.now() - started) / 1000;

  mkdirSync(outDir, { recursive: true });
  mkdirSync(docsDir, { recursive: true });
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
  // The "before" of the capacity comparison: committed, measured once on the code before the change feed.
  const baselineFile = join(projectRoot, 'bench', 'baselines', 'before-change-feed.json');
  if (existsSync(baselineFile)) results.baseline = JSON.parse(readFileSync(baselineFile, 'utf8')) as Baseline;
  const charts = {
    scale: 'performance-scale.svg',
    bundles: 'performance-bundles.svg',
    contention: 'performance-contention.svg',
  };
  if (results.scale) writeFileSync(join(docsDir, charts.scale), scaleChart(results.scale));
  if (results.bundles) writeFileSync(join(docsDir, charts.bundles), bundleChart(results.bundles));
  if (results.contention) writeFileSync(join(docsDir, charts.contention), contentionChart(results.contention));
  const report = join(docsDir, 'performance.md');
  writeFileSync(report, renderReport(results, charts));
  progress(
    `done in ${Math.round(results.durationSeconds)} s: ${relative(projectRoot, resultsFile)}, ${relative(projectRoot, report)}`,
  );
}

await main();
