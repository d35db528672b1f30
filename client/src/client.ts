/**
 * The client: one object per collection (`spaces`, `domains`, `webhooks`, `events`) and the `account`, over openapi-fetch, typed by the
 * OpenAPI document (`schema.ts`, generated). Every call goes through `send`: the key, JSON, the
 * `Idempotency-Key` of writes, the retries, and an `ApiError` for any error status.
 */
import createFetchClient from 'openapi-fetch';
import { ApiError } from './errors.js';
import { networkErrors, RETRY_DEFAULTS, type RetryOptions, sleep, withRetries } from './retry.js';
import type { components, operations, paths } from './schema.js';

export type Space = components['schemas']['Space'];
export type Domain = components['schemas']['Domain'];
export type Event = components['schemas']['Event'];
export type SpaceEvent = components['schemas']['SpaceEvent'];
export type DomainEvent = components['schemas']['DomainEvent'];
export type Deleted = components['schemas']['Deleted'];
export type SpaceList = components['schemas']['SpaceList'];
export type DomainList = components['schemas']['DomainList'];
export type EventList = components['schemas']['EventList'];
export type Webhook = components['schemas']['Webhook'];
export type WebhookWithSecret = components['schemas']['WebhookWithSecret'];
export type WebhookEvent = components['schemas']['WebhookEvent'];
export type WebhookList = components['schemas']['WebhookList'];
export type Delivery = components['schemas']['Delivery'];
export type Account = components['schemas']['Account'];
export type AccountEvent = components['schemas']['AccountEvent'];
export type DeliveryList = components['schemas']['DeliveryList'];

type JsonBody<Operation extends keyof operations> = NonNullable<
  operations[Operation]['requestBody']
>['content']['application/json'];
export type StoreSpace = JsonBody<'storeSpace'>;
export type UpdateSpace = JsonBody<'updateSpace'>;
export type StoreDomain = JsonBody<'storeDomain'>;
export type UpdateDomain = JsonBody<'updateDomain'>;
export type StoreWebhook = JsonBody<'storeWebhook'>;
export type UpdateWebhook = JsonBody<'updateWebhook'>;

type ListQuery = NonNullable<operations['listSpaces']['parameters']['query']>;
type EventsQuery = NonNullable<operations['listEvents']['parameters']['query']>;
type DeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

export interface ClientOptions {
  /** The API's base URL, `/api/v1` included: `http://127.0.0.1:3000/api/v1` locally. */
  baseUrl: string;
  /** The bearer key (`dsk_…`). */
  apiKey: string;
  /** Replaces `globalThis.fetch` (a proxy, a test double). A rejection counts as a network failure: retried. */
  fetch?: (request: Request) => Promise<Response>;
  /** Retries of 429, 503 and network failures; see `RetryOptions` for the defaults (4 attempts, 10 s). */
  retry?: RetryOptions;
}

export interface CallOptions {
  /** Aborts the call, its retries and its waits included. */
  signal?: AbortSignal;
}

export interface WriteOptions extends CallOptions {
  /**
   * Sent as `Idempotency-Key` (1 to 255 printable ASCII characters). Default: a random UUID per call, reused by
   * its retries. Pass your own to make a call repeatable across processes (a job that may run twice).
   */
  idempotencyKey?: string;
}

export interface ConditionalWriteOptions extends WriteOptions {
  /** Sent as `If-Match`: an `etag` from an earlier result. A resource that changed since answers 412 (`ApiError`). */
  ifMatch?: string;
}

export interface ShowOptions extends CallOptions {
  /** Sent as `If-None-Match`: while the resource still has this `etag`, the result is `{ notModified: true }`. */
  ifNoneMatch?: string;
}

/** A resource the API answered, with what its headers say. */
export interface Result<T> {
  notModified: false;
  /** The resource (or the deletion's `{ id, object, deleted }`). */
  data: T;
  /** `ETag`, the resource's version (`"3"`): pass it as `ifMatch` or `ifNoneMatch`. Absent on deletes. */
  etag: string | undefined;
  /** `X-Request-Id`. */
  requestId: string | undefined;
  /** `Idempotent-Replayed: true`: a retry answered with what the first attempt did (nothing was written again). */
  replayed: boolean;
  status: number;
}

/** A show with `ifNoneMatch` whose resource has not changed (304). */
export interface NotModified {
  notModified: true;
  etag: string | undefined;
  requestId: string | undefined;
  status: 304;
}

/** A list over all its pages, read one page at a time as the loop goes on (following `links.next`). */
export interface Paginated<T, Page> extends AsyncIterable<T> {
  /** The pages themselves, with their `links` and `meta`. */
  pages(): AsyncIterable<Result<Page>>;
}

export interface ListOptions extends CallOptions {
  /** Case-insensitive substring of the name. */
  search?: ListQuery['search'];
  sortBy?: ListQuery['sort_by'];
  sort?: ListQuery['sort'];
  /** Items per request: 10, 25, 50 or 100 (default 10). The iterator reads every page either way. */
  perPage?: ListQuery['per_page'];
}

export interface EventsOptions extends CallOptions {
  /** A cursor (`feed.cursor`, or `links.next`'s `after`), or the id of the last event you have. Absent: from the oldest event kept. */
  after?: string;
  /** Keeps the events whose type starts with this: `space.`, `domain.verified`. */
  type?: string;
  /** 10 to 100 (default 10). */
  perPage?: number;
}

export interface PollOptions extends EventsOptions {
  /** The wait between two reads that found nothing new, in ms. Default 1,000. */
  intervalMs?: number;
}

/** The change feed read from `after` to the newest event (`meta.has_more` false). */
export interface EventFeed extends Paginated<Event, EventList> {
  /**
   * Where the feed has been read to: the `after` of the last page fully read (then `after` as given). Pass it as
   * `after` to continue from there later.
   */
  readonly cursor: string | undefined;
}

export interface Show<T> {
  (id: number, options?: CallOptions & { ifNoneMatch?: undefined }): Promise<Result<T>>;
  (id: number, options: ShowOptions): Promise<Result<T> | NotModified>;
}

export interface Collection<T, Store, Update, Page> {
  /** `POST`: 201 with the new resource. */
  store(body: Store, options?: WriteOptions): Promise<Result<T>>;
  /** `GET /{id}`: the resource and its `etag`; with `ifNoneMatch`, `{ notModified: true }` while it has not changed. */
  show: Show<T>;
  /** `PATCH`: absent fields are unchanged. */
  update(id: number, body: Update, options?: ConditionalWriteOptions): Promise<Result<T>>;
  /** `PUT`: the API treats it as `PATCH` (a partial update). */
  replace(id: number, body: Update, options?: ConditionalWriteOptions): Promise<Result<T>>;
  delete(id: number, options?: ConditionalWriteOptions): Promise<Result<Deleted>>;
  /** Every resource, in the order asked for: `for await (const item of api.spaces.list({ sortBy: 'name' }))`. */
  list(options?: ListOptions): Paginated<T, Page>;
}

export type Spaces = Collection<Space, StoreSpace, UpdateSpace, SpaceList>;

export interface Domains extends Collection<Domain, StoreDomain, UpdateDomain, DomainList> {
  /**
   * `POST /{id}/verify`: looks up the domain's TXT record. 200 with the domain `active`; 422 (`ApiError`,
   * `errors.verification`) while the record is missing or wrong; 503 (retried) while DNS fails.
   */
  verify(id: number, options?: WriteOptions): Promise<Result<Domain>>;
}

export interface DeliveriesOptions extends CallOptions {
  /** Attempts per request: 10, 25, 50 or 100 (default 10). The iterator reads every page either way. */
  perPage?: ListQuery['per_page'];
}

export interface Webhooks extends Collection<Webhook, StoreWebhook, UpdateWebhook, WebhookList> {
  /** `POST`: 201 with the new webhook and its signing `secret`, shown only here (and by `rotateSecret`). */
  store(body: StoreWebhook, options?: WriteOptions): Promise<Result<WebhookWithSecret>>;
  /** `POST /{id}/rotate-secret`: the new `secret`; for 24 hours deliveries are signed with both. */
  rotateSecret(id: number, options?: ConditionalWriteOptions): Promise<Result<WebhookWithSecret>>;
  /** `POST /{id}/test`: sends a `webhook.test` event at once and answers the attempt. */
  test(id: number, options?: CallOptions): Promise<Result<Delivery>>;
  /** `GET /{id}/deliveries`: every attempt, newest first. */
  deliveries(id: number, options?: DeliveriesOptions): Paginated<Delivery, DeliveryList>;
}

export interface Events {
  /** The events after `after` (all kept ones without it), oldest first; ends at the newest. */
  list(options?: EventsOptions): EventFeed;
  /** Like `list`, then waits `intervalMs` and reads on from where it stopped, until `signal` aborts (the loop then ends). */
  poll(options?: PollOptions): AsyncIterable<Event>;
}

export interface AccountApi {
  /**
   * `GET /account`: the owner's plan, each kind's `used` and `limit`, and this key's scopes, expiry and rate
   * limit; with `ifNoneMatch`, `{ notModified: true }` while none of it changed.
   */
  get(options?: CallOptions & { ifNoneMatch?: undefined }): Promise<Result<Account>>;
  get(options: ShowOptions): Promise<Result<Account> | NotModified>;
}

export interface Client {
  spaces: Spaces;
  domains: Domains;
  webhooks: Webhooks;
  events: Events;
  account: AccountApi;
}

/** What openapi-fetch answers. */
type Sent<T> = { data?: T; error?: unknown; response: Response };
/** What each openapi-fetch call is given on top of its path, query and body. */
type Init = { headers: Record<string, string>; signal: AbortSignal | undefined };

export function createClient(options: ClientOptions): Client {
  const userFetch = options.fetch;
  const api = createFetchClient<paths>({
    baseUrl: options.baseUrl,
    headers: { Accept: 'application/json', Authorization: `Bearer ${options.apiKey}` },
    // What fetch itself throws is a network failure, the one kind of thrown error worth retrying.
    fetch: async (request) => {
      try {
        return await (userFetch ?? globalThis.fetch)(request);
      } catch (error) {
        if (typeof error === 'object' && error !== null) networkErrors.add(error);
        throw error;
      }
    },
  });
  const retry = { ...RETRY_DEFAULTS, ...options.retry };

  /** One logical call: its headers (and a write's one `Idempotency-Key`) for every attempt, retried as configured. */
  async function send<T>(
    attempt: (init: Init) => Promise<Sent<T>>,
    {
      signal,
      headers = {},
      write,
    }: { signal?: AbortSignal; headers?: Record<string, string | undefined>; write?: { key?: string } },
  ): Promise<{ data: T | undefined; response: Response }> {
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) sent[name] = value;
    if (write) sent['Idempotency-Key'] = write.key ?? crypto.randomUUID();
    return withRetries(retry, signal, async () => {
      const { data, error, response } = await attempt({ headers: sent, signal });
      if (response.ok || response.status === 304) return { data, response };
      throw new ApiError(response, error);
    });
  }

  const resultOf = <T>(data: T, response: Response): Result<T> => ({
    notModified: false,
    data,
    etag: response.headers.get('ETag') ?? undefined,
    requestId: response.headers.get('X-Request-Id') ?? undefined,
    replayed: response.headers.get('Idempotent-Replayed') === 'true',
    status: response.status,
  });

  /** A call whose success answers `{ data: resource }`. */
  async function single<T>(
    attempt: (init: Init) => Promise<Sent<{ data: T }>>,
    options: { signal?: AbortSignal; headers?: Record<string, string | undefined>; write?: { key?: string } },
  ): Promise<Result<T>> {
    const { data, response } = await send(attempt, options);
    return resultOf((data as { data: T }).data, response);
  }

  async function deleted(attempt: (init: Init) => Promise<Sent<Deleted>>, options: ConditionalWriteOptions) {
    const { data, response } = await send(attempt, writeOptions(options));
    return resultOf(data as Deleted, response);
  }

  function show<T>(attempt: (init: Init) => Promise<Sent<{ data: T }>>, options: ShowOptions = {}) {
    return send(attempt, { signal: options.signal, headers: { 'If-None-Match': options.ifNoneMatch } }).then(
      ({ data, response }): Result<T> | NotModified =>
        response.status === 304
          ? {
              notModified: true,
              etag: response.headers.get('ETag') ?? undefined,
              requestId: response.headers.get('X-Request-Id') ?? undefined,
              status: 304,
            }
          : resultOf((data as { data: T }).data, response),
    );
  }

  function list<T, Page extends { data: T[]; links: { next: string | null } }>(
    attempt: (query: ListQuery, init: Init) => Promise<Sent<Page>>,
    options: ListOptions,
  ): Paginated<T, Page> {
    const first: ListQuery = {
      search: options.search,
      sort_by: options.sortBy,
      sort: options.sort,
      per_page: options.perPage,
    };
    return paged(attempt, first, options.signal);
  }

  /** Pages that follow `links.next` until it is null. */
  function paged<T, Page extends { data: T[]; links: { next: string | null } }, Query>(
    attempt: (query: Query, init: Init) => Promise<Sent<Page>>,
    first: Query,
    signal: AbortSignal | undefined,
  ): Paginated<T, Page> {
    async function* pages(): AsyncGenerator<Result<Page>> {
      for (let query = first; ; ) {
        const current = query;
        const { data, response } = await send((init) => attempt(current, init), { signal });
        const page = resultOf(data as Page, response);
        yield page;
        if (!page.data.links.next) return;
        query = queryOf(page.data.links.next) as Query;
      }
    }
    return { pages, [Symbol.asyncIterator]: () => itemsOf(pages()) };
  }

  function events(options: EventsOptions): EventFeed {
    const { signal } = options;
    let cursor = options.after;
    async function* pages(): AsyncGenerator<Result<EventList>> {
      for (let query: EventsQuery = { after: options.after, type: options.type, per_page: options.perPage }; ; ) {
        const current = query;
        const { data, response } = await send((init) => api.GET('/events', { params: { query: current }, ...init }), {
          signal,
        });
        const page = resultOf(data as EventList, response);
        yield page;
        query = queryOf(page.data.links.next) as EventsQuery;
        cursor = query.after ?? cursor;
        if (!page.data.meta.has_more) return;
      }
    }
    return {
      get cursor() {
        return cursor;
      },
      pages,
      [Symbol.asyncIterator]: () => itemsOf(pages()),
    };
  }

  async function* poll({ intervalMs = 1_000, ...options }: PollOptions): AsyncGenerator<Event> {
    const { signal } = options;
    for (let after = options.after; !signal?.aborted; ) {
      const feed = events({ ...options, after });
      try {
        for await (const event of feed) yield event;
        await sleep(intervalMs, signal);
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      after = feed.cursor;
    }
  }

  const path = (id: number) => ({ path: { id } });

  return {
    spaces: {
      store: (body, options = {}) => single((init) => api.POST('/spaces', { body, ...init }), writeOptions(options)),
      show: ((id: number, options?: ShowOptions) =>
        show((init) => api.GET('/spaces/{id}', { params: path(id), ...init }), options)) as Show<Space>,
      update: (id, body, options = {}) =>
        single((init) => api.PATCH('/spaces/{id}', { params: path(id), body, ...init }), writeOptions(options)),
      replace: (id, body, options = {}) =>
        single((init) => api.PUT('/spaces/{id}', { params: path(id), body, ...init }), writeOptions(options)),
      delete: (id, options = {}) =>
        deleted((init) => api.DELETE('/spaces/{id}', { params: path(id), ...init }), options),
      list: (options = {}) => list((query, init) => api.GET('/spaces', { params: { query }, ...init }), options),
    },
    domains: {
      store: (body, options = {}) => single((init) => api.POST('/domains', { body, ...init }), writeOptions(options)),
      show: ((id: number, options?: ShowOptions) =>
        show((init) => api.GET('/domains/{id}', { params: path(id), ...init }), options)) as Show<Domain>,
      update: (id, body, options = {}) =>
        single((init) => api.PATCH('/domains/{id}', { params: path(id), body, ...init }), writeOptions(options)),
      replace: (id, body, options = {}) =>
        single((init) => api.PUT('/domains/{id}', { params: path(id), body, ...init }), writeOptions(options)),
      delete: (id, options = {}) =>
        deleted((init) => api.DELETE('/domains/{id}', { params: path(id), ...init }), options),
      list: (options = {}) => list((query, init) => api.GET('/domains', { params: { query }, ...init }), options),
      verify: (id, options = {}) =>
        single((init) => api.POST('/domains/{id}/verify', { params: path(id), ...init }), writeOptions(options)),
    },
    webhooks: {
      store: (body, options = {}) => single((init) => api.POST('/webhooks', { body, ...init }), writeOptions(options)),
      show: ((id: number, options?: ShowOptions) =>
        show((init) => api.GET('/webhooks/{id}', { params: path(id), ...init }), options)) as Show<Webhook>,
      update: (id, body, options = {}) =>
        single((init) => api.PATCH('/webhooks/{id}', { params: path(id), body, ...init }), writeOptions(options)),
      replace: (id, body, options = {}) =>
        single((init) => api.PUT('/webhooks/{id}', { params: path(id), body, ...init }), writeOptions(options)),
      delete: (id, options = {}) =>
        deleted((init) => api.DELETE('/webhooks/{id}', { params: path(id), ...init }), options),
      list: (options = {}) => list((query, init) => api.GET('/webhooks', { params: { query }, ...init }), options),
      rotateSecret: (id, options = {}) =>
        single(
          (init) => api.POST('/webhooks/{id}/rotate-secret', { params: path(id), ...init }),
          writeOptions(options),
        ),
      test: (id, options = {}) =>
        single((init) => api.POST('/webhooks/{id}/test', { params: path(id), ...init }), { signal: options.signal }),
      deliveries: (id, options = {}) =>
        paged(
          (query: DeliveriesQuery, init) =>
            api.GET('/webhooks/{id}/deliveries', { params: { ...path(id), query }, ...init }),
          { per_page: options.perPage },
          options.signal,
        ),
    },
    events: {
      list: (options = {}) => events(options),
      poll: (options = {}) => poll(options),
    },
    account: {
      get: ((options?: ShowOptions) => show((init) => api.GET('/account', init), options)) as AccountApi['get'],
    },
  };
}

/** A write's headers: its `Idempotency-Key` (given or new) and `If-Match`. */
function writeOptions(options: ConditionalWriteOptions) {
  return {
    signal: options.signal,
    headers: { 'If-Match': options.ifMatch },
    write: { key: options.idempotencyKey },
  };
}

/** The query of a `links.next` URL, to ask the same path for it (whatever host the link names). */
function queryOf(link: string): Record<string, string> {
  return Object.fromEntries(new URL(link, 'http://link.invalid').searchParams);
}

async function* itemsOf<T>(pages: AsyncIterable<{ data: { data: T[] } }>): AsyncGenerator<T> {
  for await (const page of pages) yield* page.data.data;
}
