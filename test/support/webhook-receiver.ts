/**
 * A webhook receiver for tests: a real HTTP (or HTTPS) server on a loopback address and a free port, which
 * records every request it is sent (its body byte for byte) and counts connections, so a test can tell "sent
 * and refused" from "never sent". How it answers is set per test; by default 204. Every body it is sent is
 * checked against the published schema of webhook bodies (`docs/events/webhook.v1.schema.json`): `close()`
 * fails, naming them, when one is not what the schema says, whatever the test itself checked.
 */
import { once } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { webhookBodyProblem } from './webhook-schema.ts';

export type ReceivedRequest = {
  method: string;
  /** The path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as received, decoded as UTF-8. */
  body: string;
  /** The local address the connection came in on (which of several receivers it reached). */
  localAddress: string;
  /** The TLS server name the client asked for (SNI), over HTTPS. */
  servername?: string;
};

/** Answers one request; the body is already read. */
export type Respond = (response: ServerResponse, request: IncomingMessage) => void;

export type WebhookReceiver = {
  readonly port: number;
  readonly host: string;
  /** `http(s)://<host>:<port><path>`. */
  url(path?: string): string;
  readonly requests: readonly ReceivedRequest[];
  /** Connections accepted, whether or not a request followed. */
  readonly connections: number;
  /** How the following requests are answered. */
  respondWith(respond: Respond): void;
  /** Resolves once `count` requests have come in. */
  waitForRequests(count: number): Promise<void>;
  /** Bodies the webhook schema does not describe, with why. */
  readonly offSchema: readonly { body: string; problem: string }[];
  /** Stops it; fails when a body it was sent is off the schema. */
  close(): Promise<void>;
};

export type ReceiverOptions = {
  host?: string;
  port?: number;
  /** Serve HTTPS with this key and certificate (PEM). */
  tls?: { key: string; cert: string };
};

export async function startReceiver({
  host = '127.0.0.1',
  port = 0,
  tls,
}: ReceiverOptions = {}): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  const offSchema: { body: string; problem: string }[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  let respond: Respond = (response) => response.writeHead(204).end();
  let waiters: { count: number; resolve: () => void }[] = [];

  const onRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const socket = request.socket as Partial<TLSSocket>;
    const body = Buffer.concat(chunks).toString('utf8');
    const problem = webhookBodyProblem(body);
    if (problem) offSchema.push({ body: body.slice(0, 500), problem });
    requests.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      body,
      localAddress: request.socket.localAddress ?? '',
      ...(typeof socket.servername === 'string' ? { servername: socket.servername } : {}),
    });
    const due = waiters.filter((waiter) => requests.length >= waiter.count);
    waiters = waiters.filter((waiter) => !due.includes(waiter));
    for (const waiter of due) waiter.resolve();
    respond(response, request);
  };
  const server: Server = tls ? createHttpsServer(tls, onRequest) : createHttpServer(onRequest);
  const onConnection = (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  // Over TLS `connection` is the TCP connection, before any handshake: a refused certificate still counts.
  server.on('connection', onConnection);
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
  const scheme = tls ? 'https' : 'http';
  const hostInUrl = host.includes(':') ? `[${host}]` : host;

  return {
    port: address.port,
    host,
    url: (path = '/hook') => `${scheme}://${hostInUrl}:${address.port}${path}`,
    requests,
    get connections() {
      return connections;
    },
    respondWith: (next) => {
      respond = next;
    },
    waitForRequests: (count) =>
      requests.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    offSchema,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (offSchema.length > 0) {
        const shown = JSON.stringify(offSchema.slice(0, 3));
        throw new Error(`${offSchema.length} webhook bodies off docs/events/webhook.v1.schema.json: ${shown}`);
      }
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on (it was free a moment ago): connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const server = createHttpServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
