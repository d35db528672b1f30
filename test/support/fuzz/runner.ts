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
 * `Location` or replay is wrong, and on a refused request that changed something. Bounded in cases and time;
 * loopback addresses only (docs/api.md maps its checks to Schemathesis').
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

export type FuzzTarget = {
  /** The API's base URL, `/api/v1` included. */
  apiUrl: string;
  /** A key of a new owner with every scope: each case runs as its own owner. */
  newKey: () => Promise<string>;
  /** Publishes TXT records at a name (a controlled DNS server); without it verify is expected to find none. */
  publishTxt?: (name: string, values: string[]) => void;
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
  const cases = Array.from({ length: perOperation }, (_, round) => samples.map((each) => each[round] as Case))
    .flat()
    .slice(0, options.runs);
  const report: FuzzReport = { seed, cases: 0, requests: 0, ms: 0, statuses: {}, failures: [], environment: [] };
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
        await runCase(c, { target, send, report });
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

/** A stored item to act on: a space or a domain with pages, as valid JSON. */
async function setup(send: Send, key: string, collection: Collection): Promise<StoredItem> {
  const body = resourceOf(collection).setupBody();
  const stored = await send(key, 'POST', `/${collection}`, { body: JSON.stringify(body), type: MEDIA.json });
  if (stored.status !== 201) throw new CaseFailure(`setup: storing a ${collection} item answered ${stored.status}`);
  return { data: (stored.body as { data: Record<string, unknown> }).data, etag: stored.headers.get('etag') ?? '' };
}

/** What every case of a run shares: the stack, its requests, the report it adds to. */
type Run = { target: FuzzTarget; send: Send; report: FuzzReport };

/** Runs one case: its item stored first if it acts on one, its request sent, its answer judged. */
async function runCase(c: Case, { target, send, report }: Run): Promise<void> {
  const { op } = c;
  const key = await target.newKey();
  const item =
    op.collection && op.path.includes('{id}') && c.id === 'existing'
      ? await setup(send, key, op.collection)
      : undefined;
  const path = op.path.replace('{id}', item ? String(item.data.id) : c.rawId);
  const method = c.method ?? op.method;
  const query = new URLSearchParams(c.query).toString();
  const headers = { ...c.headers };
  if (item && c.conditional && op.action === 'show') headers['If-None-Match'] = item.etag;
  if (item && c.conditional && (op.action === 'update' || op.action === 'destroy') && c.valid)
    headers['If-Match'] = item.etag;
  if (item && c.noneMatch) headers['If-None-Match'] = c.noneMatch === '*' ? '*' : item.etag;
  const verification = item?.data.verification as { name: string; value: string } | undefined;
  if (op.action === 'verify' && verification && c.publish && target.publishTxt) {
    target.publishTxt(verification.name, [verification.value]);
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
    published: Boolean(verification && c.publish && target.publishTxt),
    apiUrl: target.apiUrl,
    send: (sendMethod, sendPath, init) => send(key, sendMethod, sendPath, init),
  });
}
