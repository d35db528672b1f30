/**
 * A DNS server to verify domains by hand with `npm start`: the test suite's authoritative server
 * (`test/support/dns-server.ts`) on a fixed port of 127.0.0.1, serving the TXT records given on the command line.
 *   npm run dns -- [--port 5353] <name>=<value> ...
 * Then start the API with `DNS_RESOLVER=127.0.0.1:5353 npm start`. Every other name is NXDOMAIN. Ctrl-C stops it.
 */
import { parseArgs } from 'node:util';
import { startDnsServer } from '#test/support/dns-server.ts';

const USAGE = 'Usage: npm run dns -- [--port 5353] <name>=<value> ...   (one argument per TXT value)';

const { values, positionals } = parseArgs({
  options: { port: { type: 'string', default: '5353' }, help: { type: 'boolean', short: 'h' } },
  allowPositionals: true,
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`--port must be a port number (1-65535). ${USAGE}`);
  process.exit(2);
}

const records = new Map<string, string[]>();
for (const argument of positionals) {
  const separator = argument.indexOf('=');
  if (separator < 1) {
    console.error(`"${argument}" is not <name>=<value>. ${USAGE}`);
    process.exit(2);
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
for (const [name, txt] of records) console.log(`  ${name} TXT ${txt.map((value) => JSON.stringify(value)).join(' ')}`);
if (records.size === 0) console.log('  (no records: every name answers NXDOMAIN)');
console.log('Ctrl-C to stop.');

const stop = () => void server.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
