/**
 * Section 6, memory: each function's bundle (as deployed, from section 1) imported in a fresh Node 24 process
 * and invoked warm, sequentially, against DynamoDB Local; the process's peak RSS is what Lambda's memory
 * size must hold. Needs DYNAMODB_ENDPOINT, TABLE_NAME, CURSOR_SECRET, EDGE_HOSTNAME (the domain functions bind
 * it at init) and the bundles in .bench-data/bundles.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { deployedBundleFile, node24 } from './bundles.ts';
import { apiEvent, authorizerEvent } from './lambda.ts';
import { benchDataDir, progress, quick, round, runNode, writeResult } from './support.ts';

const INVOCATIONS = quick ? 50 : 500;

export type MemoryResult = {
  name: string;
  invocations: number;
  peakRssMb: number;
  rssMb: number;
  heapUsedMb: number;
};

export type MemorySection = { invocations: number; node: string; functions: MemoryResult[] };

/** Imports the bundle, runs every event through its handler, checks each answer, prints memory figures. */
const PROBE = `
import { readFileSync } from 'node:fs';
const events = JSON.parse(readFileSync(process.env.BENCH_EVENTS, 'utf8'));
const { handler } = await import(process.env.BENCH_BUNDLE);
const context = { functionName: 'bench', awsRequestId: 'bench', getRemainingTimeInMillis: () => 10000 };
for (const event of events) {
  const result = await handler(event, context);
  const ok = result.principalId !== undefined || (result.statusCode >= 200 && result.statusCode < 300);
  if (!ok) throw new Error('Unexpected answer: ' + JSON.stringify(result).slice(0, 300));
}
const memory = process.memoryUsage();
console.log(JSON.stringify({ maxRss: process.resourceUsage().maxRSS * 1024, rss: memory.rss, heapUsed: memory.heapUsed }));
`;

async function main() {
  const node = node24();
  const db = createDb(loadConfig(process.env));
  const owner = `bench-memory-${randomUUID().slice(0, 8)}`;
  const { key } = await createApiKey(db, owner, 'benchmark');
  db.client.destroy();
  const tag = randomUUID().slice(0, 8);
  const times = <T>(make: (index: number) => T) => Array.from({ length: INVOCATIONS }, (_, index) => make(index));

  // A fresh owner's ids start at 1, so the stored items are 1..N and can be shown, updated and deleted.
  const plan: { name: string; events: unknown[] }[] = [];
  for (const collection of ['spaces', 'domains'] as const) {
    const single = collection.slice(0, -1);
    const base = `/api/v1/${collection}`;
    const at = (index: number) => `${base}/${index + 1}`;
    const storeForm = (index: number): Record<string, string> =>
      collection === 'spaces' ? { name: `Memory ${index}` } : { name: `m${index}-${tag}.bench.example` };
    const updateForm = (index: number): Record<string, string> =>
      collection === 'spaces' ? { color: String((index % 6) + 1) } : { index_page: `https://www.example.org/${index}` };
    plan.push(
      {
        name: `store-${single}`,
        events: times((i) => apiEvent({ method: 'POST', url: base, owner, form: storeForm(i) })),
      },
      { name: `show-${single}`, events: times((i) => apiEvent({ method: 'GET', url: at(i), owner })) },
      {
        name: `update-${single}`,
        events: times((i) => apiEvent({ method: 'PATCH', url: at(i), owner, form: updateForm(i) })),
      },
      { name: `list-${collection}`, events: times(() => apiEvent({ method: 'GET', url: base, owner })) },
      { name: `destroy-${single}`, events: times((i) => apiEvent({ method: 'DELETE', url: at(i), owner })) },
    );
  }
  plan.push({ name: 'authorizer', events: times(() => authorizerEvent(key)) });

  const functions: MemoryResult[] = [];
  for (const { name, events } of plan) {
    const bundle = join(benchDataDir, 'bundles', name, deployedBundleFile);
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: section 1 (bundles) writes it`);
    const file = join(tmpdir(), `bench-events-${process.pid}-${name}.json`);
    writeFileSync(file, JSON.stringify(events));
    progress(`memory: ${name}, ${events.length} warm invocations`);
    try {
      const stdout = await runNode(
        ['--input-type=module', '-e', PROBE],
        {
          BENCH_EVENTS: file,
          BENCH_BUNDLE: pathToFileURL(bundle).href,
          // As on Lambda: the bundle binds its handler to the environment while it initialises.
          AWS_LAMBDA_FUNCTION_NAME: name,
          AWS_REGION: 'local',
          NODE_OPTIONS: '',
        },
        node.path,
      );
      const figures = JSON.parse(stdout.trim().split('\n').at(-1) as string) as Record<string, number>;
      const mb = (bytes: number | undefined) => round((bytes ?? Number.NaN) / 2 ** 20, 1);
      functions.push({
        name,
        invocations: events.length,
        peakRssMb: mb(figures.maxRss),
        rssMb: mb(figures.rss),
        heapUsedMb: mb(figures.heapUsed),
      });
    } finally {
      rmSync(file, { force: true });
    }
  }
  const result: MemorySection = { invocations: INVOCATIONS, node: node.version, functions };
  writeResult(result);
}

await main();
