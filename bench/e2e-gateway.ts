/**
 * Section 5 helper, run as its own process: the local gateway (loopback only, a free port) serving the handlers
 * as `npm start` does. Prints its URL on stdout; on SIGTERM writes its peak RSS to BENCH_OUT and exits.
 */
import { startGateway } from '#infra/local/gateway.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { writeResult } from './support.ts';

const gateway = await startGateway({
  config: loadConfig(process.env),
  port: 0,
  host: '127.0.0.1',
  logRequests: false,
  authCacheTtlSeconds: Number(process.env.BENCH_AUTH_CACHE_TTL ?? 300),
});
process.stdout.write(`${gateway.url}\n`);
process.once('SIGTERM', () => {
  writeResult({ maxRssBytes: process.resourceUsage().maxRSS * 1024 });
  void gateway.close().then(() => process.exit(0));
});
