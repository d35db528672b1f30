/**
 * `npm run fuzz`: the contract fuzzer against the stack `npm start` runs (read from its local-stack.json), each
 * case as a new owner with a key made in its table. The stack asks the fuzzer's DNS server (`DNS_RESOLVER`), where
 * the fuzzer publishes domains' records and the addresses of webhook URLs' hosts: this machine's, since the
 * stack's worker delivers to the webhooks it stores. The engine is `test/support/fuzz/` (`runner.ts`), which
 * `test/contract/fuzz.test.ts` also runs, bounded, in `npm test`; docs/api.md maps its checks to Schemathesis'.
 */
import { randomUUID } from 'node:crypto';
import { commandLine, helpOption } from '#infra/command-line.ts';
import { localSettings, readLocalStack } from '#infra/local/settings.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { describeReport } from '#test/support/fuzz/report.ts';
import { type FuzzTarget, fuzz } from '#test/support/fuzz/runner.ts';

const DNS_PORT = 5354;
/** Where the fuzzer's DNS server points every public host of a webhook URL: this machine, never out. */
const LOOPBACK = '127.0.0.1';

const USAGE = `Usage: npm run fuzz -- [--runs <n>] [--time <seconds>] [--seed <n>] [--concurrency <n>] [--dns-port <port>]

Generates requests from docs/openapi.json for every operation (valid and invalid bodies, queries, ids and
headers) and sends them to the stack \`npm start\` runs (read from its local-stack.json), each case as a new
owner with a key of its own. Fails (exit code 1) on any 5xx, any answer the document does not allow, a status
the request should not get, a 2xx that differs from a following GET, or a refused request that changed data.

The stack must ask the fuzzer's DNS server, which it serves on 127.0.0.1:<dns-port> while it runs:
  DNS_RESOLVER=127.0.0.1:${DNS_PORT} npm start
There it publishes domains' verification records, and the address of every webhook URL's host: ${LOOPBACK} (a name
with a label starting with private- resolves to a private address, which the stack must refuse). The stack's
worker delivers to the webhooks it stores, so they must point to this machine: keep the local stack's default
WEBHOOK_LOCAL_LOOPBACK=true. The fuzzer checks both before it starts.

Options:
  --runs <n>          cases to generate (default 500)
  --time <seconds>    stop starting cases after this long (default 120)
  --seed <n>          fast-check's seed, to replay a run (default: random, printed)
  --concurrency <n>   cases at a time (default 4)
  --dns-port <port>   the port of the fuzzer's DNS server, UDP and TCP (default ${DNS_PORT})
  -h, --help          this help`;

/** What keeps the stack from being fuzzed with this DNS server, or undefined: a probe webhook is stored, then deleted. */
async function stackProblem(apiUrl: string, key: string, dns: DnsTestServer): Promise<string | undefined> {
  const host = `fuzz-probe-${randomUUID().slice(0, 8)}.example`;
  dns.setAddresses(host, [LOOPBACK]);
  const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
  // Disabled: nothing is ever delivered to it.
  const body = JSON.stringify({ url: `https://${host}/probe`, enabled: false });
  const stored = await fetch(`${apiUrl}/webhooks`, { method: 'POST', headers, body });
  const answer = await stored.text();
  if (stored.status === 201) {
    const { id } = (JSON.parse(answer) as { data: { id: number } }).data;
    await fetch(`${apiUrl}/webhooks/${id}`, { method: 'DELETE', headers });
    return undefined;
  }
  if (stored.status !== 422) return `A probe webhook's store answered ${stored.status}: ${answer.slice(0, 300)}`;
  if (dns.queries(host) === 0) {
    return `The stack does not ask the fuzzer's DNS server: start it with DNS_RESOLVER=${dns.address} npm start (in another terminal), then run this again.`;
  }
  return (
    'The stack refuses webhooks to this machine (WEBHOOK_LOCAL_LOOPBACK=false), so its worker would deliver the ' +
    "fuzzer's webhooks to public addresses: start it with the default WEBHOOK_LOCAL_LOOPBACK=true."
  );
}

async function main() {
  const parsed = commandLine(USAGE, {
    options: {
      ...helpOption,
      runs: { type: 'string' },
      time: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      'dns-port': { type: 'string' },
    },
  });
  if (!parsed) return;
  const number = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) {
      console.error(`--${name} must be a whole number\n\n${USAGE}`);
      process.exit(2);
    }
    return Number(value);
  };
  const { values } = parsed;
  const dnsPort = number('dns-port', values['dns-port'], DNS_PORT);
  if (dnsPort < 1 || dnsPort > 65_535) {
    console.error(`--dns-port must be a port number (1-65535)\n\n${USAGE}`);
    process.exit(2);
  }
  const stack = readLocalStack(localSettings(process.env).dataDir);
  if (!stack) {
    console.error('No local stack found: start it with `npm start` (in another terminal), then run this again.');
    process.exit(2);
  }
  const db = createDb(loadConfig({ TABLE_NAME: stack.tableName, DYNAMODB_ENDPOINT: stack.endpoint }));
  const newKey = async () => (await createApiKey(db, `fuzz-${randomUUID()}`, 'npm run fuzz')).key;
  const dns = await startDnsServer({ port: dnsPort }).catch((error: Error) => {
    console.error(`Could not serve DNS on 127.0.0.1:${dnsPort}: ${error.message}`);
    process.exit(1);
  });
  try {
    const problem = await stackProblem(stack.apiUrl, await newKey(), dns);
    if (problem) {
      console.error(problem);
      process.exitCode = 2;
      return;
    }
    const target: FuzzTarget = {
      apiUrl: stack.apiUrl,
      newKey,
      dns,
      webhooks: { loopbackAllowed: true, publicAddress: LOOPBACK, delivers: true },
    };
    const report = await fuzz(target, {
      runs: number('runs', values.runs, 500),
      timeLimitMs: number('time', values.time, 120) * 1000,
      ...(values.seed === undefined ? {} : { seed: number('seed', values.seed, 0) }),
      concurrency: number('concurrency', values.concurrency, 4),
      log: (line) => console.error(line),
    });
    console.log(describeReport(report));
    process.exitCode = report.failures.length === 0 ? 0 : 1;
  } finally {
    await dns.close();
  }
}

main().catch((error) => {
  console.error((error as Error).message);
  process.exit(1);
});
