/**
 * A small authoritative DNS server on 127.0.0.1 for tests: real packets over UDP and TCP (the resolver
 * falls back to TCP when a UDP answer is truncated), on a free port, with TXT, CNAME and A records and failure
 * modes the tests set at run time. Names are matched ignoring case; every other name is NXDOMAIN.
 */
import { createSocket, type RemoteInfo, type Socket as UdpSocket } from 'node:dgram';
import { createServer, type Server, type Socket } from 'node:net';
import { AUTHORITATIVE_ANSWER, decode, encode, type Packet, RECURSION_DESIRED, TRUNCATED_RESPONSE } from 'dns-packet';

/** `servfail` and `refused` answer with that code; `silent` never answers (a resolver that times out). */
export type DnsMode = 'servfail' | 'refused' | 'silent';

/** One TXT record: a string (split into 255-byte chunks as needed) or its chunks as given. */
export type TxtRecord = string | readonly string[];

export type DnsTestServer = {
  readonly port: number;
  /** `127.0.0.1:<port>`, as `createDnsResolver({ servers })` and `DNS_RESOLVER` take it. */
  readonly address: string;
  /** Replaces the TXT records at `name`. An empty list leaves the name existing without TXT (NODATA). */
  setTxt(name: string, records: readonly TxtRecord[]): void;
  /** Makes `name` an alias of `target` (a CNAME, answered to CNAME and A questions). */
  setCname(name: string, target: string): void;
  /** Replaces the IPv4 addresses of `name` (A records). */
  setAddresses(name: string, addresses: readonly string[]): void;
  /** Makes every query for `name` fail this way, until cleared. */
  setMode(name: string, mode: DnsMode): void;
  /** Drops the next `count` queries for `name` unanswered, then answers again (to see a retry work). */
  dropNext(name: string, count: number): void;
  /** Forgets `name`: records, mode and drops. */
  clear(name: string): void;
  /** Forgets every name and the query counts. */
  reset(): void;
  /** Queries received for `name` (any type, UDP and TCP, answered or not). */
  queries(name: string): number;
  close(): Promise<void>;
};

const HOST = '127.0.0.1';
const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;
const MAX_CHUNK_BYTES = 255;
/** Without EDNS a UDP answer may carry 512 bytes (RFC 1035); EDNS lets the client announce more. */
const PLAIN_UDP_LIMIT = 512;

type Entry = { txt?: Buffer[][]; cname?: string; addresses?: string[]; mode?: DnsMode; drop?: number };

const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

/** Splits at character boundaries so no chunk ends inside a UTF-8 sequence. */
function chunksOf(record: TxtRecord): Buffer[] {
  if (typeof record !== 'string') {
    return record.map((chunk) => {
      const bytes = Buffer.from(chunk);
      if (bytes.length > MAX_CHUNK_BYTES) throw new RangeError(`A TXT chunk holds at most ${MAX_CHUNK_BYTES} bytes`);
      return bytes;
    });
  }
  const chunks: Buffer[] = [];
  let current = '';
  for (const character of record) {
    if (Buffer.byteLength(current + character) > MAX_CHUNK_BYTES) {
      chunks.push(Buffer.from(current));
      current = '';
    }
    current += character;
  }
  chunks.push(Buffer.from(current));
  return chunks;
}

/** `port`: serve on this port (UDP and TCP), for a server run by hand (`npm run dns`); a free one by default. */
export async function startDnsServer({ port: wanted = 0 }: { port?: number } = {}): Promise<DnsTestServer> {
  const entries = new Map<string, Entry>();
  const counts = new Map<string, number>();

  const holdsRecords = (entry: Entry | undefined) =>
    entry?.txt !== undefined || entry?.cname !== undefined || entry?.addresses !== undefined;
  const exists = (name: string) =>
    holdsRecords(entries.get(name)) || [...entries.keys()].some((other) => other.endsWith(`.${name}`));

  /** The answers to a question of `type` at `name`: a CNAME answers for every type but TXT at its name. */
  function answersFor(type: string, name: string, entry: Entry | undefined): NonNullable<Packet['answers']> {
    if (entry?.cname !== undefined && type !== 'TXT') {
      const alias = { type: 'CNAME' as const, name, ttl: 0, data: entry.cname };
      const target = entries.get(key(entry.cname));
      return type === 'A' ? [alias, ...answersFor('A', entry.cname, target)] : [alias];
    }
    if (type === 'TXT') return (entry?.txt ?? []).map((data) => ({ type: 'TXT' as const, name, ttl: 0, data }));
    if (type === 'A') return (entry?.addresses ?? []).map((data) => ({ type: 'A' as const, name, ttl: 0, data }));
    return [];
  }

  /** The answer to one query, or null to stay silent. */
  function respond(query: Packet, overUdp: boolean): Buffer | null {
    const question = query.questions?.[0];
    const reply = (rcode: number, answers: Packet['answers'] = [], truncated = false) =>
      encode({
        id: query.id ?? 0,
        type: 'response',
        flags:
          AUTHORITATIVE_ANSWER |
          ((query.flags ?? 0) & RECURSION_DESIRED) |
          (truncated ? TRUNCATED_RESPONSE : 0) |
          rcode,
        questions: query.questions ?? [],
        answers,
      });
    if (!question) return reply(RCODE.FORMERR);
    const name = key(question.name);
    counts.set(name, (counts.get(name) ?? 0) + 1);
    const entry = entries.get(name);
    if (entry?.drop) {
      entry.drop--;
      return null;
    }
    if (entry?.mode === 'silent') return null;
    if (entry?.mode === 'servfail') return reply(RCODE.SERVFAIL);
    if (entry?.mode === 'refused') return reply(RCODE.REFUSED);
    if (!exists(name)) return reply(RCODE.NXDOMAIN);
    const answer = reply(RCODE.NOERROR, answersFor(question.type, question.name, entry));
    const opt = query.additionals?.find((record) => record.type === 'OPT');
    const limit = Math.max(PLAIN_UDP_LIMIT, opt && 'udpPayloadSize' in opt ? opt.udpPayloadSize : 0);
    return overUdp && answer.length > limit ? reply(RCODE.NOERROR, [], true) : answer;
  }

  function decodeOrNull(message: Buffer): Packet | null {
    try {
      return decode(message);
    } catch {
      return null;
    }
  }

  function answerUdp(udp: UdpSocket, message: Buffer, peer: RemoteInfo) {
    const query = decodeOrNull(message);
    const answer = query && respond(query, true);
    if (answer) udp.send(answer, peer.port, peer.address);
  }

  // Over TCP every message is preceded by its length in two bytes (RFC 1035 4.2.2).
  const connections = new Set<Socket>();
  const tcp = createServer((socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (data) => {
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 2 && pending.length >= 2 + pending.readUInt16BE(0)) {
        const length = pending.readUInt16BE(0);
        const query = decodeOrNull(pending.subarray(2, 2 + length));
        pending = pending.subarray(2 + length);
        const answer = query && respond(query, false);
        if (answer) socket.write(Buffer.concat([Buffer.from([answer.length >> 8, answer.length & 0xff]), answer]));
      }
    });
  });

  const { udp, port } = await listenOnOneFreePort(answerUdp, tcp, wanted);
  const entry = (name: string) => {
    const found = entries.get(key(name)) ?? {};
    entries.set(key(name), found);
    return found;
  };

  return {
    port,
    address: `${HOST}:${port}`,
    setTxt: (name, records) => {
      entry(name).txt = records.map(chunksOf);
    },
    setCname: (name, target) => {
      entry(name).cname = key(target);
    },
    setAddresses: (name, addresses) => {
      entry(name).addresses = [...addresses];
    },
    setMode: (name, mode) => {
      entry(name).mode = mode;
    },
    dropNext: (name, count) => {
      entry(name).drop = count;
    },
    clear: (name) => {
      entries.delete(key(name));
    },
    reset: () => {
      entries.clear();
      counts.clear();
    },
    queries: (name) => counts.get(key(name)) ?? 0,
    close: async () => {
      for (const socket of connections) socket.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}

const MAX_PORT_ATTEMPTS = 10;

/**
 * Binds UDP to a free port (or the one wanted), then TCP to the same one; with a free port, tries another if
 * that one's TCP side is taken.
 */
async function listenOnOneFreePort(
  onMessage: (udp: UdpSocket, message: Buffer, peer: RemoteInfo) => void,
  tcp: Server,
  wanted: number,
): Promise<{ udp: UdpSocket; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const udp = createSocket('udp4');
    udp.on('message', (message, peer) => onMessage(udp, message, peer));
    await new Promise<void>((resolve, reject) => {
      udp.once('error', reject);
      udp.bind(wanted, HOST, () => {
        udp.off('error', reject);
        resolve();
      });
    });
    const { port } = udp.address();
    try {
      await new Promise<void>((resolve, reject) => {
        tcp.once('error', reject);
        tcp.listen(port, HOST, () => {
          tcp.off('error', reject);
          resolve();
        });
      });
      return { udp, port };
    } catch (error) {
      udp.close();
      const retry = wanted === 0 && (error as { code?: string }).code === 'EADDRINUSE';
      if (!retry || attempt === MAX_PORT_ATTEMPTS) throw error;
    }
  }
}
