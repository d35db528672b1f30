/**
 * Section 5 helper, run as its own process: the DynamoDB calls of one operation issued directly, with the API's
 * client configuration and the same concurrency as the HTTP load, for a fixed time. The floor our stack is
 * compared with. Needs BARE_OP (show | list), BARE_OWNER, BARE_ID, BARE_SECONDS, BARE_CONNECTIONS.
 */
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { bareCall } from './e2e-calls.ts';
import { percentile, round, writeResult } from './support.ts';

const db = createDb(loadConfig(process.env));
const seconds = Number(process.env.BARE_SECONDS);
const connections = Number(process.env.BARE_CONNECTIONS);
const issue = bareCall(db, process.env.BARE_OP, process.env.BARE_OWNER as string, Number(process.env.BARE_ID));

async function load(durationMs: number) {
  const latencies: number[] = [];
  const until = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      await issue();
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return { latencies, elapsed: (performance.now() - started) / 1000 };
}

await load(1_000);
const { latencies, elapsed } = await load(seconds * 1000);
writeResult({
  requests: latencies.length,
  rps: round(latencies.length / elapsed, 1),
  p50: round(percentile(latencies, 50)),
  p99: round(percentile(latencies, 99)),
});
db.client.destroy();
