/**
 * The webhooks section's receivers: HTTP servers on 127.0.0.1 in the bench's process, each verifying every
 * delivery's signature with the `standardwebhooks` package (a delivery that does not verify is answered 401 and
 * counts as lost), optionally failing the first attempts of each message.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';

/** One request a receiver was sent: when it answered (performance.now()), what, and for which event. */
export type Arrival = {
  messageId: string;
  eventId: number;
  /** The space the event is about (its `data.id`). */
  spaceId: number;
  /** The receiver's count of requests for this message id, from 1. */
  attempt: number;
  status: number;
  verified: boolean;
  at: number;
};

export type Receiver = {
  url: string;
  /** The webhook's signing secret, once the webhook is stored. */
  secret: string;
  arrivals: Arrival[];
  /** The first verified 2xx for the space's event. */
  deliveredAt: (spaceId: number) => number | undefined;
  close: () => Promise<void>;
};

/** A receiver on 127.0.0.1: fails the first `failFirst` attempts of each message (500), then verifies and answers. */
export async function startReceiver(failFirst = 0): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const attempts = new Map<string, number>();
  const delivered = new Map<number, number>();
  let verifier: Webhook | undefined;
  const receiver: Receiver = {
    url: '',
    secret: '',
    arrivals,
    deliveredAt: (spaceId) => delivered.get(spaceId),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const onRequest = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const messageId = String(request.headers['webhook-id'] ?? '');
    const attempt = (attempts.get(messageId) ?? 0) + 1;
    attempts.set(messageId, attempt);
    let verified = false;
    if (attempt > failFirst) {
      try {
        verifier ??= new Webhook(receiver.secret);
        verifier.verify(body, request.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
    }
    const status = attempt <= failFirst ? 500 : verified ? 204 : 401;
    const at = performance.now();
    // What verified is the event as listed; anything else is kept as an arrival about no space.
    let event = { id: Number.NaN, spaceId: Number.NaN };
    try {
      const parsed = JSON.parse(body) as { id: string; data: { id: number } };
      event = { id: Number(parsed.id), spaceId: Number(parsed.data.id) };
    } catch {}
    arrivals.push({ messageId, eventId: event.id, spaceId: event.spaceId, attempt, status, verified, at });
    if (verified && !delivered.has(event.spaceId)) delivered.set(event.spaceId, at);
    response.writeHead(status).end();
  };
  const server: Server = createServer((request, response) => void onRequest(request, response));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
  receiver.url = `http://127.0.0.1:${address.port}/hook`;
  return receiver;
}

/** Verified 2xx answers beyond the first for one message. */
export const duplicatesOf = (arrivals: readonly Arrival[]) => {
  const seen = new Set<string>();
  let duplicates = 0;
  for (const arrival of arrivals) {
    if (!arrival.verified) continue;
    if (seen.has(arrival.messageId)) duplicates++;
    seen.add(arrival.messageId);
  }
  return duplicates;
};

/** Answers past the failures meant to happen whose signature did not verify. */
export const badSignaturesOf = (arrivals: readonly Arrival[], failFirst = 0) =>
  arrivals.filter((arrival) => arrival.attempt > failFirst && !arrival.verified).length;
