/**
 * A DNS server to verify domains by hand with `npm start`: the test suite's authoritative server
 * (`test/support/dns-server.ts`) on a fixed port of 127.0.0.1, serving the records given on the command line.
 *   npm run dns -- [--port 5353] [--cname <name>=<target>] <name>=<value> ...
 * Then start the API with `DNS_RESOLVER=127.0.0.1:5353 npm start`. Every other name is NXDOMAIN. Ctrl-C stops it.
 */

import { commandLine, helpOption } from '#infra/command-line.ts';
import { startDnsServer } from '#test/support/dns-server.ts';

const USAGE = `Usage: npm run dns -- [--port 5353] [--cname <name>=<target> ...] <name>=<value> ...

Serves the TXT records given (one argument per value; a name given twice has both values) and the CNAME records
given with --cname on 127.0.0.1, over UDP and TCP, so that domains can be verified by hand: start the API with
DNS_RESOLVER=127.0.0.1:<port> npm start. Every other name answers NXDOMAIN. Ctrl-C stops it.

Options:
  --port <port>           the port to serve on (default 5353)
  --cname <name>=<target> a CNAME record: the routing record a served domain points at the edge host
                          (the CNAME in the domain's records: edge.localhost with npm start)
  -h, --help              this help`;

/** `<name>=<value>` split at the first `=`, or null. */
function pair(argument: string): [string, string] | null {
  const separator = argument.indexOf('=');
  return separator < 1 ? null : [argument.slice(0, separator), argument.slice(separator + 1)];
}

async function main() {
  const parsed = commandLine(USAGE, {
    options: { ...helpOption, port: { type: 'string', default: '5353' }, cname: { type: 'string', multiple: true } },
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
  const aliases = new Map<string, string>();
  for (const [argument, isCname] of [
    ...positionals.map((argument) => [argument, false] as const),
    ...(values.cname ?? []).map((argument) => [argument, true] as const),
  ]) {
    const found = pair(argument);
    if (!found) {
      console.error(`"${argument}" is not <name>=<value>.\n\n${USAGE}`);
      process.exitCode = 2;
      return;
    }
    const [name, value] = found;
    if (isCname) aliases.set(name, value);
    else records.set(name, [...(records.get(name) ?? []), value]);
  }

  const server = await startDnsServer({ port }).catch((error: Error) => {
    console.error(`Could not serve DNS on 127.0.0.1:${port}: ${error.message}`);
    process.exit(1);
  });
  for (const [name, txt] of records) server.setTxt(name, txt);
  for (const [name, target] of aliases) server.setCname(name, target);

  console.log(`DNS on ${server.address} (UDP and TCP). Start the API with: DNS_RESOLVER=${server.address} npm start`);
  for (const [name, txt] of records)
    console.log(`  ${name} TXT ${txt.map((value) => JSON.stringify(value)).join(' ')}`);
  for (const [name, target] of aliases) console.log(`  ${name} CNAME ${target}`);
  if (records.size === 0 && aliases.size === 0) console.log('  (no records: every name answers NXDOMAIN)');
  console.log('Ctrl-C to stop.');

  const stop = () => void server.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

await main();
