/**
 * The contract fuzzer's engine: a property-based run of the OpenAPI document against a running stack
 * (`npm start`), the Schemathesis way, with fast-check. For every operation of the document (each its share of the cases) it
 * generates requests: valid ones from the request schemas and parameters (every combination of optional
 * fields, values generated from the patterns themselves, odd but valid Unicode, the forms the descriptions
 * tolerate) and invalid ones (wrong JSON types, unknown and read-only fields, lengths one past the limit,
 * forbidden characters, missing fields, bad ids, cursors and preconditions), now and then without a key, with an
 * `Accept` that excludes JSON, `If-None-Match` on a change or a byte order mark, each as a fresh owner with a key
 * of its own. A case fails on any 5xx, on any answer the document does not allow (status, headers, body: the e2e
 * checker, `test/support/openapi.ts`), on a status its request should not get (a valid body refused, an invalid
 * one taken), on a 2xx whose resource differs from a following GET or from what was sent, on a 201 whose
 * `Location` or replay is wrong, a secret shown amiss, and on a refused request that changed something. Bounded in
 * cases and time; loopback addresses only (docs/api.md maps its checks to Schemathesis'). The stack asks the
 * fuzzer's DNS server: a domain's record is published there for half the verify cases, and every webhook URL's host
 * resolves as `webhook-urls.ts` says (a public address, or a private one for `private-` names), so no answer
 * depends on the machine's resolver; a test delivery's host is pointed at a private address first, so that it is
 * refused before any connection.
 *
 * `npm run fuzz` (`scripts/fuzz.ts`) runs it against `npm start`; `test/contract/fuzz.test.ts` runs it, bounded,
 * in `npm test`. Here the cases are dealt out and run; `cases.ts` (with `valid-values.ts`, `invalid-bodies.ts`)
 * makes them from the document (`operations.ts`), `oracle.ts` judges the answers, and `resources.ts` holds what
 * the fuzzer knows of the resources beyond the document.
 */
import fc from 'fast-check';
import type { Collection } from '#lib/kinds.ts';
import { type Case, caseArbitrary } from '#test/support/fuzz/cases.ts';
import { CaseFailure, encode, type Send, sender } from '#test/support/fuzz/client.ts';
import { MEDIA, operations } from '#test/support/fuzz/operations.ts';
import { judge, type StoredItem } from '#test/support/fuzz/oracle.ts';
import { type FuzzReport, tally } from '#test/support/fuzz/report.ts';
import { resourceOf } from '#test/support/fuzz/resources.ts';
import {
  addressesOf,
  callsPublicAddress,
  PRIVATE_ADDRESS,
  type WebhookStack,
} from '#test/support/fuzz/webhook-urls.ts';

/** The stack's DNS server (its `DNS_RESOLVER`), which the fuzzer writes to. */
export type FuzzDns = {
  setTxt(name: string, values: string[]): void;
  setAddresses(name: string, addresses: readonly string[]): void;
};

export type FuzzTarget = {
  /** The API's base URL, `/api/v1` included. */
  apiUrl: string;
  /** A key of a new owner with every scope: each case runs as its own owner. */
  newKey: () => Promise<string>;
  /**
   * The DNS server the stack asks: the fuzzer publishes a domain's TXT record there before half the verify cases,
   * and the addresses of every webhook URL's host before it is sent (`addressesOf`), so that no answer depends on
   * the machine's resolver.
   */
  dns: FuzzDns;
  /** How the stack takes webhook URLs, and what the fuzzer's DNS server answers for their hosts. */
  webhooks: WebhookStack;
};

export type FuzzOptions = {
  runs: number;
  /** Stop starting cases after this long; running ones finish. */
  timeLimitMs: number;
  seed?: number;
  concurrency?: number;
  log?: (line: string) => void;
};

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export async function fuzz(target: FuzzTarget, options: FuzzOptions): Promise<FuzzReport> {
  if (!LOOPBACK.has(new URL(target.apiUrl).hostname)) {
    throw new Error(`The fuzzer runs against a local stack only (loopback), not ${target.apiUrl}`);
  }
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const ops = operations();
  // Every operation its share of the cases, interleaved: which operations are covered does not depend on chance.
  const perOperation = Math.ceil(options.runs / ops.length);
  const samples = ops.map((op, index) => fc.sample(caseArbitrary(op), { numRuns: perOperation, seed: seed + index }));
  const dealt = Array.from({ length: perOperation }, (_, round) => samples.map((each) => each[round] as Case)).flat();
  // A stack that delivers (`npm start`) would call a webhook stored on a public IP address: such cases are left out.
  const cases = dealt.filter((c) => !(target.webhooks.delivers && callsOut(c))).slice(0, options.runs);
  if (cases.length < Math.min(dealt.length, options.runs)) {
    options.log?.('Cases storing a webhook on a public IP address are left out: this stack delivers.');
  }
  const report: FuzzReport = {
    seed,
    cases: 0,
    requests: 0,
    ms: 0,
    statuses: {},
    failures: [],
    environment: [],
  };
  const started = performance.now();
  const send = sender(target.apiUrl, () => {
    report.requests++;
  });

  // Runs the cases, a few at a time, until they are done or the time is up.
  const queue = [...cases];
  const seen = new Set<string>();
  const worker = async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      if (performance.now() - started > options.timeLimitMs) return;
      report.cases++;
      try {
        await runCase(c, { target, send, report }).catch((error: unknown) => {
          // A failure found on the way (a 5xx, an answer the document does not allow) says which case met it.
          if (!(error instanceof CaseFailure) || error.message.startsWith(c.op.id)) throw error;
          const sent = c.body === undefined ? '' : `, ${c.encoding} ${JSON.stringify(c.body).slice(0, 160)}`;
          throw new CaseFailure(`${c.op.id} (${c.valid ? 'valid' : 'invalid'}: ${c.note}${sent}): ${error.message}`);
        });
      } catch (error) {
        if (!(error instanceof CaseFailure)) throw error;
        // One line per distinct problem (the first 120 characters), with its case.
        const signature = error.message.slice(0, 120);
        if (!seen.has(signature)) {
          seen.add(signature);
          report.failures.push(error.message);
          options.log?.(`FAIL ${error.message}`);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, worker));
  report.ms = Math.round(performance.now() - started);
  return report;
}

const callsOut = (c: Case) =>
  typeof c.body === 'object' && typeof c.body.url === 'string' && callsPublicAddress(c.body.url);

/** Makes the hosts a write of this body looks up resolve, as `addressesOf` says. */
function publishHosts(target: FuzzTarget, collection: Collection | undefined, body: unknown): void {
  if (!collection || typeof body !== 'object' || body === null) return;
  for (const host of resourceOf(collection).hostsOf?.(body as Record<string, unknown>) ?? []) {
    target.dns.setAddresses(host, addressesOf(host, target.webhooks));
  }
}

/** A stored item to act on, from valid JSON; what its store alone shows (a secret) is kept apart. */
async function setup(run: Run, key: string, collection: Collection): Promise<StoredItem> {
  const resource = resourceOf(collection);
  const body = resource.setupBody();
  publishHosts(run.target, collection, body);
  const stored = await run.send(key, 'POST', `/${collection}`, { body: JSON.stringify(body), type: MEDIA.json });
  if (stored.status !== 201) throw new CaseFailure(`setup: storing a ${collection} item answered ${stored.status}`);
  const data = { ...(stored.body as { data: Record<string, unknown> }).data };
  const shownOnce: Record<string, unknown> = {};
  for (const field of Object.keys(resource.shownOnce ?? {})) {
    shownOnce[field] = data[field];
    delete data[field];
  }
  return { data, etag: stored.headers.get('etag') ?? '', shownOnce, sentBody: body };
}

/** What every case of a run shares: the stack, its requests, the report it adds to. */
type Run = { target: FuzzTarget; send: Send; report: FuzzReport };

/**
 * Runs one case: its item stored first if it acts on one, the hosts it names published, its request sent, its
 * answer judged.
 */
async function runCase(c: Case, run: Run): Promise<void> {
  const { target, send, report } = run;
  const { op } = c;
  const key = await target.newKey();
  const item =
    op.collection && op.path.includes('{id}') && c.id === 'existing' ? await setup(run, key, op.collection) : undefined;
  const path = op.path.replace('{id}', item ? String(item.data.id) : c.rawId);
  const method = c.method ?? op.method;
  const query = new URLSearchParams(c.query).toString();
  const headers = { ...c.headers };
  if (item && c.conditional && op.action === 'show') headers['If-None-Match'] = item.etag;
  const takesIfMatch = op.action === 'update' || op.action === 'destroy' || op.action === 'rotate-secret';
  if (item && c.conditional && takesIfMatch && c.valid) headers['If-Match'] = item.etag;
  if (item && c.noneMatch) headers['If-None-Match'] = c.noneMatch === '*' ? '*' : item.etag;
  const verification = item?.data.verification as { name: string; value: string } | undefined;
  if (op.action === 'verify' && verification && c.publish) target.dns.setTxt(verification.name, [verification.value]);
  publishHosts(target, op.collection, c.body);
  // A test delivery goes out at once: its host now resolves to a private address (DNS changed since the store),
  // so the delivery is refused before any connection, and nothing leaves the machine.
  if (op.action === 'test' && item) {
    for (const host of resourceOf(op.collection).hostsOf?.(item.sentBody) ?? []) {
      target.dns.setAddresses(host, [PRIVATE_ADDRESS]);
    }
  }
  const body = c.body !== undefined && c.encoding ? `${c.bom ? '\uFEFF' : ''}${encode(c.encoding, c.body)}` : '';
  const reply = await send(c.noKey ? undefined : key, method, `${path}${query ? `?${query}` : ''}`, {
    ...(c.body !== undefined && c.encoding ? { body, type: MEDIA[c.encoding] } : {}),
    headers,
  });
  tally(report, op.id, reply.status);
  if (op.action === 'verify' && reply.status === 503) {
    report.environment.push(`${op.id}: 503, the stack's DNS resolver did not answer`);
    return;
  }
  await judge({
    c,
    reply,
    item,
    method,
    path,
    body,
    headers,
    published: Boolean(verification && c.publish),
    stack: target.webhooks,
    apiUrl: target.apiUrl,
    send: (sendMethod, sendPath, init) => send(key, sendMethod, sendPath, init),
    publishHosts: (body) => publishHosts(target, op.collection, body),
  });
}
