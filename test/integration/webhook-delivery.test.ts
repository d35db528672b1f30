/**
 * One delivery attempt against real receivers on loopback addresses (node:http and node:https on free ports),
 * and a real DNS server (test/support/dns-server.ts) where a host's addresses matter. Every destination here is
 * on this machine: a destination the code must refuse is always paired with a loopback receiver that would
 * see the connection, so a refusal that failed would show as a request there, not as traffic elsewhere.
 */
import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDnsResolver } from '#lib/dns/resolver.ts';
import { domainExample } from '#lib/domains/api/schema.ts';
import type { Resolve } from '#lib/webhooks/rules/address.ts';
import { messageIdOf, newSigningSecret, webhookHeaders } from '#lib/webhooks/rules/signature.ts';
import { type DeliveryRequest, deliver, EXCERPT_WAIT_MS, excerptOf, systemResolve } from '#lib/webhooks/send.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { makeCertificates } from '#test/support/tls-certificates.ts';
import { closedPort, startReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

/** A whole event, as the feed lists it: the receiver checks every body against the webhook schema. */
const EVENT = {
  id: '000000000042',
  type: 'domain.verified',
  created_at: '2026-11-25T10:00:00.000Z',
  data: { ...domainExample, id: 7, name: 'xn--bcher-kva.de', unicode_name: 'bücher.de', status: 'active' },
};
const BODY = JSON.stringify(EVENT);

/** Generous for a loaded 2-core machine, and still far inside the 10 s default. */
const SHORT_TIMEOUT_MS = 600;
/** How late past its deadline an attempt may end on a busy machine. */
const DEADLINE_SLACK_MS = 1_500;

const resolvingTo =
  (...addresses: string[]): Resolve =>
  async () =>
    addresses;

/** A delivery of EVENT signed with `secrets`, as the delivery function will send it. */
function signed(secrets: string[], overrides: Partial<DeliveryRequest> & { url: string }): DeliveryRequest {
  const msgId = messageIdOf(3, EVENT.id);
  return {
    body: BODY,
    headers: webhookHeaders(secrets, msgId, Math.floor(Date.now() / 1_000), BODY),
    allowLoopback: true,
    ...overrides,
  };
}

/** Lets a connection that should not happen have its chance to arrive before the test says it did not. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

let receiver: WebhookReceiver;
let other: WebhookReceiver;
beforeEach(async () => {
  [receiver, other] = await Promise.all([startReceiver(), startReceiver()]);
});
afterEach(async () => {
  await Promise.all([receiver.close(), other.close()]);
});

describe("one of the local stack's own ports", () => {
  it('is refused at delivery, before any connection, whatever the stored URL says', async () => {
    // Prepare: the receiver's port is one the stack holds
    receiver.respondWith((response) => response.writeHead(200).end('the stack itself'));
    const port = Number(new URL(receiver.url()).port);
    const request = signed([newSigningSecret()], { url: receiver.url() });
    // Act
    const result = await deliver({ ...request, reservedPorts: new Set([port]) });
    // Assess
    expect(result).toMatchObject({ ok: false, error: 'stack_port', responseExcerpt: '' });
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('a 2xx answer', () => {
  it('is delivered: the exact body, the Standard Webhooks headers, a signature standardwebhooks verifies', async () => {
    // Prepare
    const secret = newSigningSecret();
    receiver.respondWith((response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks'));
    const request = signed([secret], { url: receiver.url('/hooks/in?source=ds') });
    // Act
    const result = await deliver(request);
    // Assess
    expect(result).toEqual({
      ok: true,
      statusCode: 200,
      durationMs: expect.any(Number),
      responseExcerpt: 'thanks',
      address: '127.0.0.1',
    });
    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received).toMatchObject({ method: 'POST', url: '/hooks/in?source=ds', body: BODY });
    expect(received?.headers).toMatchObject({
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(BODY)),
      'user-agent': expect.stringMatching(/^domains-spaces-webhooks\//),
      'webhook-id': 'msg_3_000000000042',
      'webhook-timestamp': request.headers['webhook-timestamp'],
      'webhook-signature': request.headers['webhook-signature'],
      host: `127.0.0.1:${receiver.port}`,
    });
    const verified = new Webhook(secret).verify(received?.body ?? '', received?.headers as Record<string, string>);
    expect(verified).toEqual(EVENT);
  });

  it('is verified by a receiver holding either secret while one rotates', async () => {
    // Prepare
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    // Act
    const result = await deliver(signed([next, previous], { url: receiver.url() }));
    // Assess
    expect(result.ok).toBe(true);
    const [received] = receiver.requests;
    const headers = received?.headers as Record<string, string>;
    expect(new Webhook(next).verify(received?.body ?? '', headers)).toEqual(EVENT);
    expect(new Webhook(previous).verify(received?.body ?? '', headers)).toEqual(EVENT);
  });

  it.each([200, 201, 202, 204, 299])('%i is delivered', async (status) => {
    // Prepare
    receiver.respondWith((response) => response.writeHead(status).end());
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url() }));
    // Assess
    expect(result).toMatchObject({ ok: true, statusCode: status });
    expect(result.error).toBeUndefined();
  });
});

describe('any other answer is a failure, reported with its status', () => {
  it.each([300, 301, 304, 400, 401, 404, 410, 429, 500, 502, 503])('%i', async (status) => {
    // Prepare
    receiver.respondWith((response) => response.writeHead(status).end());
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url() }));
    // Assess
    expect(result).toMatchObject({ ok: false, statusCode: status });
    expect(result.error).toBeUndefined();
    expect(receiver.requests).toHaveLength(1);
  });

  it('a 500 keeps a short excerpt of its body', async () => {
    // Prepare
    receiver.respondWith((response) =>
      response.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"database down"}'),
    );
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url() }));
    // Assess
    expect(result).toEqual({
      ok: false,
      statusCode: 500,
      durationMs: expect.any(Number),
      responseExcerpt: '{"error":"database down"}',
      address: '127.0.0.1',
    });
  });

  it('a redirect is not followed: its target receives nothing', async () => {
    // Prepare
    for (const status of [301, 302, 303, 307, 308]) {
      receiver.respondWith((response) => response.writeHead(status, { location: other.url('/target') }).end());
      // Act
      const result = await deliver(signed([newSigningSecret()], { url: receiver.url() }));
      // Assess
      expect(result).toMatchObject({ ok: false, statusCode: status });
    }
    await settle();
    expect(receiver.requests).toHaveLength(5);
    expect(other.connections).toBe(0);
    expect(other.requests).toHaveLength(0);
  });
});

describe('the deadline', () => {
  it('ends an attempt whose receiver never answers, as a timeout, on time', async () => {
    // Prepare: the request is read, never answered
    receiver.respondWith(() => {});
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url(), timeoutMs: SHORT_TIMEOUT_MS }));
    // Assess
    expect(result).toMatchObject({ ok: false, error: 'timeout', responseExcerpt: '' });
    expect(result.statusCode).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 5);
    expect(result.durationMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
    expect(receiver.requests).toHaveLength(1);
  });

  it('counts a 2xx that came in time as delivered, though its body trickles past the deadline', async () => {
    // Prepare: 200 and a first byte, then nothing
    receiver.respondWith((response) => {
      response.writeHead(200);
      response.write('s');
    });
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url(), timeoutMs: SHORT_TIMEOUT_MS }));
    // Assess: the status decides, so the event is not sent again; the excerpt is what came
    expect(result).toEqual(expect.objectContaining({ ok: true, statusCode: 200, responseExcerpt: 's' }));
    expect(result.error).toBeUndefined();
    expect(result.durationMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
  });

  it('reads a 2xx’s slow body for the excerpt only a short while, long before the deadline', async () => {
    // Prepare: 200, a first line, then another after 5 s
    receiver.respondWith((response) => {
      response.writeHead(200);
      response.write('first ');
      setTimeout(() => response.end('late'), 5_000).unref();
    });
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url(), timeoutMs: 8_000 }));
    // Assess
    expect(result).toEqual(expect.objectContaining({ ok: true, statusCode: 200, responseExcerpt: 'first' }));
    expect(result.durationMs).toBeGreaterThanOrEqual(EXCERPT_WAIT_MS - 5);
    expect(result.durationMs).toBeLessThan(EXCERPT_WAIT_MS + DEADLINE_SLACK_MS);
  });

  it('counts a 2xx whose body breaks off as delivered, and another status’s as failed, with why', async () => {
    // Prepare: the status line and a byte, then the connection reset
    const breakingOff = (status: number) => (response: ServerResponse) => {
      response.writeHead(status, { 'content-length': '100' });
      response.write('p', () => setTimeout(() => response.socket?.resetAndDestroy(), 20));
    };
    receiver.respondWith(breakingOff(202));
    other.respondWith(breakingOff(503));
    // Act
    const [accepted, failed] = await Promise.all([
      deliver(signed([newSigningSecret()], { url: receiver.url() })),
      deliver(signed([newSigningSecret()], { url: other.url() })),
    ]);
    // Assess
    expect(accepted).toEqual(expect.objectContaining({ ok: true, statusCode: 202, responseExcerpt: 'p' }));
    expect(accepted.error).toBeUndefined();
    expect(failed).toEqual(expect.objectContaining({ ok: false, statusCode: 503, error: 'reset' }));
  });

  it('includes DNS: a lookup that never ends is a timeout, and nothing is sent', async () => {
    // Prepare
    const resolve = () => new Promise<string[]>(() => {});
    // Act
    const result = await deliver(
      signed([newSigningSecret()], {
        url: `http://localhost:${receiver.port}/hook`,
        resolve,
        timeoutMs: SHORT_TIMEOUT_MS,
      }),
    );
    // Assess
    expect(result).toMatchObject({ ok: false, error: 'timeout' });
    expect(result.durationMs).toBeGreaterThanOrEqual(SHORT_TIMEOUT_MS - 5);
    expect(result.durationMs).toBeLessThan(SHORT_TIMEOUT_MS + DEADLINE_SLACK_MS);
    await settle();
    expect(receiver.connections).toBe(0);
  });

  it('is 10 seconds unless told otherwise', async () => {
    // Prepare: fake timers only for setTimeout, so the socket's own I/O runs for real
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      receiver.respondWith(() => {});
      const attempt = deliver(signed([newSigningSecret()], { url: receiver.url() }));
      let ended = false;
      void attempt.then(() => {
        ended = true;
      });
      await receiver.waitForRequests(1);
      // Act
      await vi.advanceTimersByTimeAsync(9_999);
      await new Promise(setImmediate);
      const endedBefore = ended;
      await vi.advanceTimersByTimeAsync(1);
      // Assess
      expect(endedBefore).toBe(false);
      await expect(attempt).resolves.toMatchObject({ ok: false, error: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('network failures', () => {
  it('a port nothing listens on is refused', async () => {
    // Prepare
    const port = await closedPort();
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: `http://127.0.0.1:${port}/hook` }));
    // Assess
    expect(result).toMatchObject({ ok: false, error: 'refused', responseExcerpt: '' });
    expect(result.statusCode).toBeUndefined();
  });

  it('a connection dropped before an answer is a reset', async () => {
    // Prepare
    receiver.respondWith((response) => response.socket?.resetAndDestroy());
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url() }));
    // Assess
    expect(result).toMatchObject({ ok: false, error: 'reset' });
  });

  it('an answer that is not HTTP is a protocol error', async () => {
    // Prepare: a TCP server that answers anything with a line of text
    const server = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n\r\n'));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    try {
      // Act
      const result = await deliver(signed([newSigningSecret()], { url: `http://127.0.0.1:${port}/hook` }));
      // Assess
      expect(result).toMatchObject({ ok: false, error: 'protocol' });
    } finally {
      server.close();
    }
  });

  it('a lookup that fails or finds nothing is a DNS error, and nothing is sent', async () => {
    // Prepare
    const url = `http://localhost:${receiver.port}/hook`;
    const notFound = () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    // Act
    const failed = await deliver(signed([newSigningSecret()], { url, resolve: notFound }));
    const empty = await deliver(signed([newSigningSecret()], { url, resolve: resolvingTo() }));
    // Assess
    expect(failed).toMatchObject({ ok: false, error: 'dns' });
    expect(empty).toMatchObject({ ok: false, error: 'dns' });
    await settle();
    expect(receiver.connections).toBe(0);
  });
});

describe('the answer’s body', () => {
  it('is read up to the cap, then the connection is closed: an endless body does not hold the attempt', async () => {
    // Prepare: 64 KiB chunks for as long as the connection lasts
    let closedByClient = false;
    receiver.respondWith((response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = 'x'.repeat(64 * 1_024);
      const timer = setInterval(() => response.write(chunk), 5);
      response.write(chunk);
      response.on('close', () => {
        clearInterval(timer);
        closedByClient = true;
      });
    });
    // Act
    const result = await deliver(
      signed([newSigningSecret()], { url: receiver.url(), maxResponseBytes: 4_096, timeoutMs: 5_000 }),
    );
    // Assess
    expect(result).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: 'x'.repeat(256) });
    expect(result.durationMs).toBeLessThan(2_000);
    await vi.waitFor(() => expect(closedByClient).toBe(true));
  });

  it('is kept as at most 256 characters, control and format characters replaced', async () => {
    // Prepare: CR LF and a tab, NUL and ESC, a right-to-left override, a C1 control
    receiver.respondWith((response) =>
      response.writeHead(400).end(`line one\r\n\tline two\u0000\u001b[31mred\u202egnirts\u0085 ${'é'.repeat(300)}`),
    );
    const cleanStart = 'line one line two [31mred gnirts ';
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: receiver.url() }));
    // Assess
    expect(result.statusCode).toBe(400);
    expect(result.responseExcerpt).toBe(`${cleanStart}${'é'.repeat(256 - cleanStart.length)}`);
    expect(Array.from(result.responseExcerpt)).toHaveLength(256);
  });

  it('excerpts cut UTF-8 and never keep a control character', () => {
    // Act / Assess
    expect(excerptOf(Buffer.from('  \u0007ok\u0007  '))).toBe('ok');
    expect(excerptOf(Buffer.from('é').subarray(0, 1))).toBe('\ufffd');
    expect(excerptOf(Buffer.alloc(0))).toBe('');
    expect(excerptOf(Buffer.from('🎉'.repeat(300)))).toBe('🎉'.repeat(256));
  });
});

describe('destinations checked at delivery time', () => {
  let dns: DnsTestServer;
  beforeAll(async () => {
    dns = await startDnsServer();
  });
  afterAll(() => dns?.close());
  /** The addresses the test DNS server gives a name, as the delivery function could ask them. */
  const testDnsResolve: Resolve = (hostname) =>
    createDnsResolver({ servers: [dns.address], timeoutMs: 500, tries: 1 }).lookupAddresses(hostname);

  it('refuses a host that resolves to a private address, before any connection', async () => {
    // Prepare: the name's first address is the receiver's, its second a private one
    dns.setAddresses('rebound.example.com', ['127.0.0.1', '10.1.2.3']);
    dns.setCname('hooks.example.com', 'rebound.example.com');
    const resolve = vi.fn(testDnsResolve);
    // Act
    const result = await deliver(
      signed([newSigningSecret()], { url: `https://hooks.example.com:${receiver.port}/hook`, resolve }),
    );
    // Assess
    expect(result).toMatchObject({ ok: false, error: 'private_address', responseExcerpt: '' });
    expect(result.address).toBeUndefined();
    expect(resolve).toHaveBeenCalledWith('hooks.example.com');
    await settle();
    expect(receiver.connections).toBe(0);
  });

  it.each([
    [['127.0.0.1', '169.254.169.254'], 'metadata'],
    [['127.0.0.1', 'fd00:ec2::254'], 'metadata'],
    [['127.0.0.1', '192.168.1.20'], 'private_address'],
    [['127.0.0.1', '::ffff:172.16.0.1'], 'private_address'],
    [['127.0.0.1', 'fe80::1'], 'link_local'],
    [['127.0.0.1', '0.0.0.0'], 'reserved'],
  ])('refuses addresses %j: %s, the receiver sees nothing', async (addresses, reason) => {
    // Act
    const result = await deliver(
      signed([newSigningSecret()], {
        url: `http://localhost:${receiver.port}/hook`,
        resolve: resolvingTo(...addresses),
      }),
    );
    // Assess
    expect(result).toMatchObject({ ok: false, error: reason });
    await settle();
    expect(receiver.connections).toBe(0);
  });

  it('refuses loopback unless the local stack allows it', async () => {
    // Prepare
    dns.setAddresses('loopback.example.com', ['127.0.0.1']);
    const url = `https://loopback.example.com:${receiver.port}/hook`;
    // Act
    const refused = await deliver(signed([newSigningSecret()], { url, resolve: testDnsResolve, allowLoopback: false }));
    const literal = await deliver(signed([newSigningSecret()], { url: receiver.url(), allowLoopback: false }));
    // Assess
    expect(refused).toMatchObject({ ok: false, error: 'loopback' });
    expect(literal).toMatchObject({ ok: false, error: 'loopback' });
    await settle();
    expect(receiver.connections).toBe(0);
  });

  it('refuses a URL that its rules refuse, without a lookup', async () => {
    // Prepare
    const resolve = vi.fn(resolvingTo('127.0.0.1'));
    // Act
    const plain = await deliver(signed([newSigningSecret()], { url: 'http://hooks.example.com/hook', resolve }));
    const credentials = await deliver(
      signed([newSigningSecret()], { url: `http://user:pw@127.0.0.1:${receiver.port}/hook`, resolve }),
    );
    // Assess
    expect(plain).toMatchObject({ ok: false, error: 'scheme' });
    expect(credentials).toMatchObject({ ok: false, error: 'credentials' });
    expect(resolve).not.toHaveBeenCalled();
    expect(receiver.connections).toBe(0);
  });

  it('connects to the address it checked, even if a second lookup would give another', async () => {
    // Prepare: one receiver on 127.0.0.1 and one on 127.0.0.2, same port; DNS moves after the first answer
    const moved = await startReceiver({ host: '127.0.0.2', port: receiver.port });
    dns.setAddresses('moving.example.com', ['127.0.0.1']);
    const resolve = vi.fn(async (hostname: string) => {
      const answer = await testDnsResolve(hostname);
      dns.setAddresses('moving.example.com', ['127.0.0.2']);
      return answer;
    });
    try {
      // Act
      const result = await deliver(
        signed([newSigningSecret()], { url: `https://moving.example.com:${receiver.port}/hook`, resolve }),
      );
      // Assess: one lookup, and the connection went to its answer (over TLS to a plain HTTP receiver: a
      // protocol failure, but the receiver that counts its connections is the one DNS first named)
      expect(resolve).toHaveBeenCalledTimes(1);
      expect(await testDnsResolve('moving.example.com')).toEqual(['127.0.0.2']);
      expect(result.address).toBe('127.0.0.1');
      await settle();
      expect(receiver.connections).toBe(1);
      expect(moved.connections).toBe(0);
    } finally {
      await moved.close();
    }
  });

  it('sends the name, not the address, in Host when it pins the address', async () => {
    // Prepare
    const moved = await startReceiver({ host: '127.0.0.2', port: receiver.port });
    let lookups = 0;
    const resolve: Resolve = async () => (++lookups === 1 ? ['127.0.0.1'] : ['127.0.0.2']);
    try {
      // Act
      const result = await deliver(
        signed([newSigningSecret()], { url: `http://localhost:${receiver.port}/hook`, resolve }),
      );
      // Assess
      expect(result).toMatchObject({ ok: true, address: '127.0.0.1' });
      expect(lookups).toBe(1);
      expect(receiver.requests[0]?.headers.host).toBe(`localhost:${receiver.port}`);
      expect(moved.requests).toHaveLength(0);
    } finally {
      await moved.close();
    }
  });

  it('resolves and checks again at every attempt: the next one follows DNS, or is refused by it', async () => {
    // Prepare
    const moved = await startReceiver({ host: '127.0.0.2', port: receiver.port });
    let answer = ['127.0.0.1'];
    const resolve: Resolve = async () => answer;
    const attempt = () =>
      deliver(signed([newSigningSecret()], { url: `http://localhost:${receiver.port}/hook`, resolve }));
    try {
      // Act
      const first = await attempt();
      answer = ['127.0.0.2'];
      const second = await attempt();
      answer = ['127.0.0.2', '10.9.8.7'];
      const third = await attempt();
      // Assess
      expect(first).toMatchObject({ ok: true, address: '127.0.0.1' });
      expect(second).toMatchObject({ ok: true, address: '127.0.0.2' });
      expect(third).toMatchObject({ ok: false, error: 'private_address' });
      await settle();
      expect(receiver.requests).toHaveLength(1);
      expect(moved.requests).toHaveLength(1);
      expect(moved.connections).toBe(1);
    } finally {
      await moved.close();
    }
  });

  it('tries the next checked address when the first refuses the connection', async () => {
    // Prepare: ::1 first (nothing listens there on this port), then the receiver's 127.0.0.1
    const port = receiver.port;
    // Act
    const result = await deliver(
      signed([newSigningSecret()], { url: `http://localhost:${port}/hook`, resolve: resolvingTo('::1', '127.0.0.1') }),
    );
    // Assess
    expect(result).toMatchObject({ ok: true, address: '127.0.0.1' });
    expect(receiver.requests).toHaveLength(1);
  });

  it('uses the system resolver by default (localhost on the local stack)', async () => {
    // Act
    const result = await deliver(signed([newSigningSecret()], { url: `http://localhost:${receiver.port}/hook` }));
    // Assess
    expect(result).toMatchObject({ ok: true, address: '127.0.0.1' });
    expect(await systemResolve('localhost')).toContain('127.0.0.1');
  });
});

describe('over TLS', () => {
  const defaultCAs = getCACertificates('default');
  let secure: WebhookReceiver;
  beforeAll(async () => {
    const certificates = makeCertificates(['hooks.test']);
    // The test authority is trusted as a public one would be; this file runs in a process of its own.
    setDefaultCACertificates([...defaultCAs, certificates.ca]);
    secure = await startReceiver({ tls: certificates.servers['hooks.test'] });
  });
  afterAll(async () => {
    setDefaultCACertificates(defaultCAs);
    await secure?.close();
  });

  it('checks the certificate against the name while connecting to the pinned address', async () => {
    // Prepare
    const secret = newSigningSecret();
    const url = `https://hooks.test:${secure.port}/hook`;
    // Act
    const result = await deliver(signed([secret], { url, resolve: resolvingTo('127.0.0.1') }));
    // Assess
    expect(result).toMatchObject({ ok: true, statusCode: 204, address: '127.0.0.1' });
    const received = secure.requests.at(-1);
    expect(received?.servername).toBe('hooks.test');
    expect(received?.headers.host).toBe(`hooks.test:${secure.port}`);
    expect(new Webhook(secret).verify(received?.body ?? '', received?.headers as Record<string, string>)).toEqual(
      EVENT,
    );
  });

  it('refuses a certificate for another name, before sending anything', async () => {
    // Prepare
    const before = secure.requests.length;
    // Act
    const otherName = await deliver(
      signed([newSigningSecret()], {
        url: `https://other.test:${secure.port}/hook`,
        resolve: resolvingTo('127.0.0.1'),
      }),
    );
    const byAddress = await deliver(signed([newSigningSecret()], { url: `https://127.0.0.1:${secure.port}/hook` }));
    // Assess
    expect(otherName).toMatchObject({ ok: false, error: 'tls' });
    expect(byAddress).toMatchObject({ ok: false, error: 'tls' });
    expect(secure.requests).toHaveLength(before);
  });

  it('refuses a certificate no trusted authority issued', async () => {
    // Prepare: a server whose authority is not trusted
    const untrusted = makeCertificates(['hooks.test']);
    const impostor = await startReceiver({ tls: untrusted.servers['hooks.test'] });
    try {
      // Act
      const result = await deliver(
        signed([newSigningSecret()], {
          url: `https://hooks.test:${impostor.port}/hook`,
          resolve: resolvingTo('127.0.0.1'),
        }),
      );
      // Assess
      expect(result).toMatchObject({ ok: false, error: 'tls' });
      expect(impostor.requests).toHaveLength(0);
    } finally {
      await impostor.close();
    }
  });
});

describe('the test receiver', () => {
  it('fails its close when a body it got is off the webhook schema: the bus’s envelope is', async () => {
    // Prepare: the bus's detail (schema_version, owner) is not what a webhook is sent
    const envelope = await startReceiver();
    const busDetail = JSON.stringify({ schema_version: 1, owner: 'acme', ...EVENT });
    // Act
    await fetch(envelope.url(), { method: 'POST', body: busDetail, headers: { 'content-type': 'application/json' } });
    // Assess
    expect(envelope.offSchema).toHaveLength(1);
    await expect(envelope.close()).rejects.toThrow(/off docs\/events\/webhook\.v1\.schema\.json/);
  });
});
