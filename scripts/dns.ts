/**
 * A DNS server to verify domains by hand with `npm start`: the test suite's authoritative server
 * (`test/support/dns-server.ts`) on a fixed port of 127.0.0.1, serving the TXT records given on the command line.
 *   npm run dns -- [--port 5353] <name>=<value> ...
 * Then start the API with `DNS_RESOLVER=127.0.0.1:5353 npm start`. Every other name is NXDOMAIN. Ctrl-C stops it.
 */
import { startDnsServer } from '#test/support/dns-server.ts';
import { commandLine, helpOption } from './support/cli.ts';

const USAGE = `Usage: npm run dns -- [--port 5353] <name>=<value> ...

Serves the TXT records given (one argument per value; a name given twice has both values) on 127.0.0.1, over
UDP and TCP, so that domains can be verified by hand: start the API with DNS_RESOLVER=127.0.0.1:<port> npm start.
Every other name answers NXDOMAIN. Ctrl-C stops it.

Options:
  --port <port>   the port to serve on (default 5353)
  -h, --help      this help`;

async function main() {
  const parsed = commandLine(USAGE, {
    options: { ...helpOption, port: { type: 'string', default: '5353' } },
    allowPositionals: true,
  });
  if (!parsed) return;
  const { values, positionals } = parsed;
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) {
    console.error(`--port must be a port number (1-65535).\n\n${USAGE}`);
    process.exitCode = 2;
    return;
  }

  const records = new Map<string, string[]>();
  for (const argument of positionals) {
    const separator = argument.indexOf('=');
    if (separator < 1) {
      console.error(`"${argument}" is not <name>=<value>.\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    const name = argument.slice(0, separator);
    records.set(name, [...(records.get(name) ?? []), argument.slice(separator + 1)]);
  }

  const server = await startDnsServer({ port }).catch((error: Error) => {
    console.error(`Could not serve DNS on 127.0.0.1:${port}: ${error.message}`);
    process.exit(1);
  });
  for (const [name, txt] of records) server.setTxt(name, txt);

  console.log(`DNS on ${server.address} (UDP and TCP). Start the API with: DNS_RESOLVER=${server.address} npm start`);
  for (const [name, txt] of records)
    console.log(`  ${name} TXT ${txt.map((value) => JSON.stringify(value)).join(' ')}`);
  if (records.size === 0) console.log('  (no records: every name answers NXDOMAIN)');
  console.log('Ctrl-C to stop.');

  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
