/**
 * The oracle: what a case's answer must be, by the document and by a following read. Its status must be one the
 * request may get (a valid request taken, an invalid one refused with the status its fault calls for); a 201
 * says where the item is, and its replay answers it again without using up an id; a 2xx that wrote answers
 * what a following GET shows, holding what was sent; a delete leaves nothing to show; a refused request
 * changes nothing. (Every answer is also checked against the document as it arrives: `client.ts`.)
 */

import { SEARCH_MAX } from '#lib/data/keys.ts';
import { acceptsJson } from '#lib/http/headers.ts';
import type { Case } from '#test/support/fuzz/cases.ts';
import { CaseFailure, type Reply, type SendOptions } from '#test/support/fuzz/client.ts';
import { MEDIA } from '#test/support/fuzz/operations.ts';
import { RESOURCES, resourceOf } from '#test/support/fuzz/resources.ts';
import type { WebhookStack } from '#test/support/fuzz/webhook-urls.ts';
import { schemaErrors } from '#test/support/openapi.ts';

/** An item a case acts on, as its store answered it, from the body sent. */
export type StoredItem = {
  /** As a read shows it: without the fields only the store's answer shows (`shownOnce`). */
  data: Record<string, unknown>;
  etag: string;
  /** The fields only the store's answer showed (a secret). */
  shownOnce: Record<string, unknown>;
  sentBody: Record<string, unknown>;
};

/** A case's request, as sent and answered, and what the oracle needs to look again. */
export type Exchange = {
  c: Case;
  reply: Reply;
  /** The item the case acted on (stored for it first), if any. */
  item: StoredItem | undefined;
  /** The request as sent: its method, path without the query, body and headers (a store's replay resends it). */
  method: string;
  path: string;
  body: string;
  headers: Record<string, string>;
  /** The domain's verification record was published before a verify. */
  published: boolean;
  /** How the stack takes webhook URLs. */
  stack: WebhookStack;
  /** The API's base URL, `/api/v1` included. */
  apiUrl: string;
  /** Sends a request as the case's owner. */
  send: (method: string, path: string, init?: SendOptions) => Promise<Reply>;
  /** Makes the hosts a write of this body looks up resolve (before the oracle sends one of its own). */
  publishHosts: (body: Record<string, unknown>) => void;
};

/** Fails the case (`CaseFailure`) when its answer is not what the document and a following read allow. */
export async function judge(exchange: Exchange) {
  const { c, reply, item, method, path, body, headers, published, stack, apiUrl, send } = exchange;
  const { op } = c;
  const query = new URLSearchParams(c.query).toString();
  const fail = (problem: string): never => {
    throw new CaseFailure(
      `${op.id} (${c.valid ? 'valid' : 'invalid'}: ${c.note}${query ? ` ?${query}` : ''}${c.id === 'existing' ? '' : `, ${c.id} id ${c.rawId}`}): ${problem}`,
    );
  };
  // The statuses this request may get.
  const refused = refusedByRule(c, item, stack);
  const expected = expectedStatuses(c, published, refused);
  if (!expected.includes(reply.status))
    fail(`answered ${reply.status}, expected ${expected.join(' or ')}: ${reply.text.slice(0, 300)}`);
  // A valid write refused by a rule says which fields broke it.
  if (reply.status === 422 && refused.length > 0) {
    const errors = (reply.body as { errors?: Record<string, unknown> }).errors ?? {};
    const unnamed = refused.filter((field) => !(field in errors));
    if (unnamed.length > 0) fail(`the 422 does not name ${unnamed.join(', ')}: ${reply.text.slice(0, 300)}`);
  }
  if (!c.valid && c.confirm && c.encoding && typeof c.body === 'object') {
    const pointer = op.bodies[c.encoding]?.pointer ?? '';
    if (schemaErrors(pointer, c.body) === null) fail('the fuzzer made an invalid body that the document allows');
  }
  const kind = op.collection;
  const itemPath = (id: unknown) => `/${kind}/${id}`;
  const show = async (id: unknown) => send('GET', itemPath(id));
  const data = (reply.body as { data?: Record<string, unknown> } | undefined)?.data;
  // What a read shows of the answer: all but the fields only a write's answer shows.
  const shownOnce = kind ? (RESOURCES[kind].shownOnce ?? {}) : {};
  const readable = data && Object.fromEntries(Object.entries(data).filter(([field]) => !(field in shownOnce)));

  // A search longer than any name matches nothing: never every item.
  const search = c.query.search?.trim();
  if (reply.status === 200 && search !== undefined && [...search].length > SEARCH_MAX && op.method === 'GET') {
    const { data: listed } = reply.body as { data: unknown[] };
    if (listed.length !== 0) fail(`a search of ${search.length} characters listed ${listed.length} items`);
  }
  // A 201 says where the stored resource is; a replay of its request (same key) answers it again, storing
  // nothing and taking no id.
  if (reply.status === 201) {
    const location = reply.headers.get('location') ?? '';
    const id = (reply.body as { data: { id: number } }).data.id;
    if (new URL(location, apiUrl).pathname !== `${new URL(apiUrl).pathname}/${kind}/${id}`) {
      fail(`Location ${location} is not the stored item's`);
    }
    if (c.headers['Idempotency-Key']) {
      const again = await send(method, path, { body, type: MEDIA[c.encoding ?? 'json'], headers });
      if (again.status !== 201 || again.headers.get('idempotent-replayed') !== 'true' || again.text !== reply.text) {
        fail(`a replay of the store answered ${again.status} ${again.text.slice(0, 200)}`);
      }
      const after = resourceOf(kind).afterReplayBody(id);
      exchange.publishHosts(after);
      const next = await send('POST', `/${kind}`, { body: JSON.stringify(after), type: MEDIA.json });
      if ((next.body as { data?: { id: number } }).data?.id !== id + 1) fail('a replay used up an id');
    }
  }
  // What only a write's answer shows (a secret): in a store's answer and a renewal's, each well formed; a
  // renewal's new.
  const renews = op.action === 'rotate-secret';
  if (reply.status === 201 || (reply.status === 200 && renews)) {
    for (const [field, problemOf] of Object.entries(shownOnce)) {
      const problem = problemOf(data?.[field]);
      if (problem) fail(problem);
      if (renews && data?.[field] === item?.shownOnce[field]) fail(`the ${field} is the same as before`);
    }
  }
  // A 2xx that wrote: a following GET answers the same resource (and ETag), with what was sent.
  const wrote = op.action === 'update' || op.action === 'verify' || renews;
  if (reply.status === 201 || (reply.status === 200 && wrote)) {
    const shown = await show(data?.id);
    if (shown.status !== 200 || JSON.stringify((shown.body as { data?: unknown }).data) !== JSON.stringify(readable)) {
      fail(`the answer differs from a following GET: ${reply.text.slice(0, 200)} then ${shown.text.slice(0, 200)}`);
    }
    if (shown.headers.get('etag') !== reply.headers.get('etag')) fail('the ETag differs from a following GET');
    if (c.encoding && typeof c.body === 'object') {
      const wrong = appliedWrongly(c, data ?? {}, item?.data);
      if (wrong) fail(wrong);
    }
  }
  // A renewal changes nothing else: the item as it was, but when it changed.
  if (reply.status === 200 && renews && item) {
    const unchanged = (value: Record<string, unknown> | undefined) =>
      JSON.stringify(Object.entries(value ?? {}).filter(([field]) => field !== 'updated_at'));
    if (unchanged(readable) !== unchanged(item.data)) fail(`a renewal changed the item: ${reply.text.slice(0, 300)}`);
  }
  // A test delivery is made at once, to a host that now resolves to a private address: refused before any
  // connection, and listed first among the attempts.
  if (reply.status === 200 && op.action === 'test' && item) {
    const delivery = data ?? {};
    const wanted = {
      event_type: 'webhook.test',
      attempt: 1,
      status_code: null,
      error: 'destination',
      succeeded: false,
    };
    const wrong = Object.entries(wanted).filter(([field, value]) => delivery[field] !== value);
    if (wrong.length > 0) fail(`the test delivery is not a refused attempt: ${reply.text.slice(0, 300)}`);
    const listed = await send('GET', `${itemPath(item.data.id)}/deliveries`);
    const first = (listed.body as { data?: { event_id?: unknown }[] } | undefined)?.data?.[0];
    if (listed.status !== 200 || first?.event_id !== delivery.event_id) {
      fail(`the attempts do not list the test delivery first: ${listed.text.slice(0, 300)}`);
    }
  }
  // Nothing was delivered to a new item of a stack that does not deliver.
  if (reply.status === 200 && op.action === 'deliveries' && op.method === 'GET' && !stack.delivers) {
    const { data: listed } = reply.body as { data: unknown[] };
    if (listed.length !== 0) fail(`a webhook nothing was delivered to lists ${listed.length} attempts`);
  }
  if (reply.status === 200 && op.action === 'destroy') {
    const shown = await show(item?.data.id);
    if (shown.status !== 404) fail(`a GET after the delete answered ${shown.status}`);
  }
  // A refused request changed nothing (but a verification that found no record: it records when it looked).
  if (reply.status >= 400 && item && op.method !== 'GET' && op.method !== 'HEAD') {
    const shown = await show(item.data.id);
    const checked = op.action === 'verify' ? ['last_checked_at', 'updated_at'] : [];
    const comparable = (value: unknown) =>
      JSON.stringify(Object.entries(value as object).filter(([field]) => !checked.includes(field)));
    if (comparable((shown.body as { data?: unknown }).data ?? {}) !== comparable(item.data)) {
      fail(`a refused request changed the item: ${shown.text.slice(0, 300)}`);
    }
  }
  if (reply.status >= 400 && op.action === 'store') {
    const list = await send('GET', `/${kind}`);
    const total = (list.body as { meta: { total: number } }).meta.total;
    if (total !== 0) fail(`a refused store stored something (${total} items)`);
  }
}

/** What a case's request may answer, by the document: its success, or the error its fault calls for. */
function expectedStatuses(c: Case, published: boolean, refused: readonly string[]): number[] {
  const { op } = c;
  if (op.action === 'other') return c.method === 'OPTIONS' ? [204] : [405];
  if (op.action === 'unknown') return c.method === 'OPTIONS' ? [204] : [404];
  if (op.action === 'document') return [200];
  // The gateway asks for the key first; a handler then refuses an Accept that excludes JSON before anything else.
  if (c.noKey) return [401];
  if (!acceptsJson(c.accept)) return [406];
  // If-None-Match on a change of an existing item (its ETag, or `*`): 412, nothing changes; but a body refused
  // is refused first, as the body's other faults are.
  if (c.noneMatch && c.id === 'existing') return refused.length > 0 ? [422] : [412];
  // An id the owner does not have is a 404, whatever the body; a bad Idempotency-Key is refused before any lookup.
  if (c.id !== 'existing') return c.note.startsWith('Idempotency-Key') ? [404, 422] : [404];
  switch (op.action) {
    case 'list':
      return c.valid ? [200] : [422];
    case 'events':
      // A bare id beyond the feed's head, or a cursor of another epoch, is 410 (documented, not in the schema).
      return c.valid ? ('after' in c.query ? [200, 410] : [200]) : [422];
    case 'show':
      return c.conditional ? [304] : [200];
    case 'destroy':
    case 'rotate-secret':
      return c.valid ? [200] : c.note.startsWith('If-Match') ? [412] : [422];
    case 'verify':
      return published ? [200] : [422];
    case 'test':
      return [200];
    case 'deliveries':
      return c.valid ? [200] : [422];
    case 'store':
      if (!c.valid) return c.note.includes('lone surrogate') || c.note.includes('as a list') ? [422, 400] : [422];
      return refused.length > 0 ? [422] : [201];
    case 'update':
      return c.valid && refused.length === 0 ? [200] : [422];
  }
  return [];
}

/**
 * The fields of a valid write the service refuses by a rule the schema cannot state (a domain whose page is on
 * the domain itself, a webhook URL whose host is private…); none for any other request.
 */
const refusedByRule = (c: Case, item: StoredItem | undefined, stack: WebhookStack): string[] =>
  c.valid && c.op.collection !== undefined && typeof c.body === 'object'
    ? RESOURCES[c.op.collection].refusedFields(c.body, c.op.action === 'update' ? item?.data : undefined, stack)
    : [];

/** What a 2xx answered that the body did not ask for, or undefined. */
function appliedWrongly(
  c: Case,
  data: Record<string, unknown>,
  before: Record<string, unknown> | undefined,
): string | undefined {
  const body = c.body as Record<string, unknown>;
  const checks = resourceOf(c.op.collection).expectedFields(body, c.encoding === 'form', before);
  const wrong = checks.filter(([field, value]) => JSON.stringify(data[field]) !== JSON.stringify(value));
  return wrong.length === 0
    ? undefined
    : `the answer does not apply the body: ${wrong.map(([field, value]) => `${field} is ${JSON.stringify(data[field])}, not ${JSON.stringify(value)}`).join('; ')}`;
}
