/**
 * Section 5 helper, run as its own process: the HTTP floor. A bare node:http server on 127.0.0.1 (a free port)
 * answering every request with one operation's DynamoDB calls (e2e-calls.ts) and a small JSON body: no gateway,
 * no event, no handler. Loaded by the same HTTP load as our gateway, it measures what the hop itself (the load
 * generator, HTTP on loopback, a second process) adds to the bare calls. Prints its URL on stdout; exits on SIGTERM.
 * Needs BARE_OP (show | list), BARE_OWNER, BARE_ID.
 */
import { createServer } from 'node:http';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { bareCall } from './e2e-calls.ts';

const db = createDb(loadConfig(process.env));
const issue = bareCall(db, process.env.BARE_OP, process.env.BARE_OWNER as string, Number(process.env.BARE_ID));
const server = createServer((_request, response) => {
  issue().then(
    () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{}}'),
    (error: unknown) => response.writeHead(500).end(String(error)),
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the floor server has no port');
  process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => {
    db.client.destroy();
    process.exit(0);
  });
});
