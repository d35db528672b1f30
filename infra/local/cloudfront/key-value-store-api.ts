/**
 * CloudFront KeyValueStore's data plane (REST-JSON, API version 2022-07-26): DescribeKeyValueStore, GetKey,
 * PutKey, DeleteKey, UpdateKeys and ListKeys, each with the rules of its page in the Amazon CloudFront API
 * Reference (https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_kvs_PutKey.html and siblings) and
 * the store's quotas. Every write is conditional on the store's ETag (`If-Match`) and gives the store a new one.
 */
import { type Answer, keyValueStore as errors } from './errors.ts';
import { type Account, ids, type KeyValueStore } from './model.ts';

/**
 * Quotas on key value stores (CloudFront Developer Guide, "Quotas",
 * https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/cloudfront-limits.html, and "File format for
 * key-value pairs", https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/kvs-with-functions-create-s3-kvp.html):
 * a store holds at most 5 MB, a key at most 512 bytes, a value at most 1 KB. Measured here in UTF-8 bytes; the
 * store's size is its keys' and values' bytes, and "5 MB" is taken as 5 × 1,024 × 1,024 (neither is documented).
 */
export const LIMITS = {
  keyBytes: 512,
  valueBytes: 1024,
  storeBytes: 5 * 1024 * 1024,
  /**
   * UpdateKeys: "AWS has a default quota of 50 keys or a 3 MB payload, whichever is reached first" (Terraform AWS
   * provider, aws_cloudfrontkeyvaluestore_keys_exclusive `max_batch_size`; the limit CloudFront enforces).
   */
  batchKeys: 50,
  batchBytes: 3 * 1024 * 1024,
  /** ListKeys, MaxResults: "The default is 10 and maximum allowed page is 50." Valid range 1–50. */
  pageDefault: 10,
  pageMax: 50,
} as const;

export type KeyValueStoreRequest = {
  kvsArn: string;
  key?: string;
  ifMatch?: string;
  query: URLSearchParams;
  body: string;
};

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

/**
 * Each store's size and its keys in order, kept as it is written rather than computed per call, so that a store
 * of 30,000 keys answers as fast as one of ten (the full-scale benchmark): only this module writes a store.
 */
const sizes = new WeakMap<KeyValueStore, number>();
const orders = new WeakMap<KeyValueStore, string[]>();
function sizeOf(store: KeyValueStore): number {
  let size = sizes.get(store);
  if (size === undefined) {
    size = [...store.items].reduce((sum, [key, value]) => sum + bytes(key) + bytes(value), 0);
    sizes.set(store, size);
  }
  return size;
}
/** The store's order: by key, in UTF-8 bytes. */
const compareKeys = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
function orderOf(store: KeyValueStore): string[] {
  let keys = orders.get(store);
  if (!keys) {
    keys = [...store.items.keys()].sort(compareKeys);
    orders.set(store, keys);
  }
  return keys;
}
/** The position of the first key after `key` (all keys after it: `keys.slice(at)`), by binary search. */
function positionAfter(keys: readonly string[], key: string): number {
  let low = 0;
  let high = keys.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareKeys(keys[middle] as string, key) <= 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
const counts = (store: KeyValueStore) => ({ ItemCount: store.items.size, TotalSizeInBytes: sizeOf(store) });
const json = (body: unknown, etag?: string): Answer => ({
  status: 200,
  headers: { 'content-type': 'application/json', ...(etag ? { etag } : {}) },
  body: JSON.stringify(body),
});

/**
 * Key and value sizes: ValidationException (400, "Validation failed."). Which exception a size quota gets is not
 * documented; chosen: the request's own validation error, as for the API's length constraints (Key: 1–1,024).
 */
function checkKey(key: string | undefined): string {
  if (key === undefined || key.length === 0) throw errors.validation('The key must not be empty.');
  if (bytes(key) > LIMITS.keyBytes) throw errors.validation(`The key is longer than ${LIMITS.keyBytes} bytes.`);
  return key;
}

function checkValue(value: unknown): string {
  if (typeof value !== 'string') throw errors.validation('The value must be a string.');
  if (bytes(value) > LIMITS.valueBytes) throw errors.validation(`The value is longer than ${LIMITS.valueBytes} bytes.`);
  return value;
}

function parseJson(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = body === '' ? {} : JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {}
  throw errors.validation('The request body is not a JSON object.');
}

/** The list token: the last key of the page before (base64url); the store's order is by key, in UTF-8 bytes. */
const tokenOf = (key: string) => Buffer.from(key, 'utf8').toString('base64url');

/** A write's puts and deletes, applied in that order. */
type Change = { puts: readonly (readonly [string, string])[]; deletes: readonly string[] };

/** The quotas a harness may set lower (a small store to fill in a test): the store's bytes. */
export type KeyValueStoreQuotas = { storeBytes: number };

export function keyValueStoreOperations(
  account: Account,
  quotas: KeyValueStoreQuotas = { storeBytes: LIMITS.storeBytes },
) {
  function storeOf(arn: string): KeyValueStore {
    const store = account.stores.get(arn);
    if (!store) throw errors.resourceNotFound('Resource was not found.');
    return store;
  }

  /**
   * A write: `If-Match` is required ("The current version (ETag) of the key value store", Required: Yes; its
   * absence's error is not documented, chosen ValidationException) and must be the store's current ETag, else
   * ConflictException (409, "Resource is not in expected state."); the store's size stays within its quota, else
   * ServiceQuotaExceededException (402, "Limit exceeded."). All or nothing (UpdateKeys); a new ETag after.
   */
  function write(store: KeyValueStore, ifMatch: string | undefined, change: Change) {
    if (!ifMatch) throw errors.validation('The If-Match header is required.');
    if (ifMatch !== store.etag) throw errors.conflict('Resource is not in expected state.');
    // All or nothing: the store as it would be after the change (puts, then deletes) is checked first.
    const after = new Map<string, string | undefined>();
    const current = (key: string) => (after.has(key) ? after.get(key) : store.items.get(key));
    let size = sizeOf(store);
    for (const [key, value] of change.puts) {
      const before = current(key);
      size += bytes(key) + bytes(value) - (before === undefined ? 0 : bytes(key) + bytes(before));
      after.set(key, value);
    }
    for (const key of change.deletes) {
      const before = current(key);
      // Not documented: deleting a key the store does not hold; chosen ResourceNotFoundException (404).
      if (before === undefined) throw errors.resourceNotFound('Resource was not found.');
      size -= bytes(key) + bytes(before);
      after.set(key, undefined);
    }
    if (size > quotas.storeBytes) throw errors.serviceQuotaExceeded('Limit exceeded.');
    const keys = orderOf(store);
    for (const [key, value] of after) {
      const held = store.items.has(key);
      if (value === undefined) {
        store.items.delete(key);
        if (held) keys.splice(positionAfter(keys, key) - 1, 1);
      } else {
        store.items.set(key, value);
        if (!held) keys.splice(positionAfter(keys, key), 0, key);
      }
    }
    sizes.set(store, size);
    store.etag = ids.keyValueStoreEtag();
    store.lastModified = new Date();
    return json(counts(store), store.etag);
  }

  return {
    async DescribeKeyValueStore({ kvsArn }: KeyValueStoreRequest) {
      const store = storeOf(kvsArn);
      const seconds = (date: Date) => date.getTime() / 1000;
      const described = { ...counts(store), KvsARN: store.arn, Created: seconds(store.created) };
      return json({ ...described, LastModified: seconds(store.lastModified), Status: 'READY' }, store.etag);
    },

    /** GetKey: a key the store does not hold is ResourceNotFoundException (404). */
    async GetKey({ kvsArn, key }: KeyValueStoreRequest) {
      const store = storeOf(kvsArn);
      const value = key === undefined ? undefined : store.items.get(key);
      if (key === undefined || value === undefined) throw errors.resourceNotFound('Resource was not found.');
      return json({ Key: key, Value: value, ...counts(store) });
    },

    async PutKey({ kvsArn, key, ifMatch, body }: KeyValueStoreRequest) {
      const store = storeOf(kvsArn);
      const checkedKey = checkKey(key);
      const value = checkValue(parseJson(body).Value);
      return write(store, ifMatch, { puts: [[checkedKey, value]], deletes: [] });
    },

    async DeleteKey({ kvsArn, key, ifMatch }: KeyValueStoreRequest) {
      const store = storeOf(kvsArn);
      const checkedKey = checkKey(key);
      return write(store, ifMatch, { puts: [], deletes: [checkedKey] });
    },

    /** UpdateKeys: "Puts or deletes multiple key-value pairs in a single, all-or-nothing operation." */
    async UpdateKeys({ kvsArn, ifMatch, body }: KeyValueStoreRequest) {
      const store = storeOf(kvsArn);
      const request = parseJson(body);
      const puts = Array.isArray(request.Puts) ? (request.Puts as { Key?: string; Value?: unknown }[]) : [];
      const deletes = Array.isArray(request.Deletes) ? (request.Deletes as { Key?: string }[]) : [];
      // Batch limits (LIMITS.batchKeys, batchBytes); their exception is not documented, chosen ValidationException.
      if (puts.length + deletes.length > LIMITS.batchKeys) {
        throw errors.validation(`At most ${LIMITS.batchKeys} keys can be updated at once.`);
      }
      if (bytes(body) > LIMITS.batchBytes) throw errors.validation('The request payload is larger than 3 MB.');
      const putPairs = puts.map((put) => [checkKey(put.Key), checkValue(put.Value)] as const);
      const deleteKeys = deletes.map((each) => checkKey(each.Key));
      return write(store, ifMatch, { puts: putPairs, deletes: deleteKeys });
    },

    /** ListKeys: pages of `MaxResults` (1–50, default 10), continued with `NextToken`. */
    async ListKeys({ kvsArn, query }: KeyValueStoreRequest) {
      const store = storeOf(kvsArn);
      const max = Number(query.get('MaxResults') ?? LIMITS.pageDefault);
      if (!Number.isInteger(max) || max < 1 || max > LIMITS.pageMax) {
        throw errors.validation(`MaxResults must be between 1 and ${LIMITS.pageMax}.`);
      }
      const token = query.get('NextToken');
      const keys = orderOf(store);
      // Not documented: a token this store did not give; chosen ValidationException.
      const after = token === null ? undefined : Buffer.from(token, 'base64url').toString('utf8');
      if (token !== null && (token === '' || tokenOf(after ?? '') !== token)) {
        throw errors.validation('The NextToken is not valid.');
      }
      const from = after === undefined ? 0 : positionAfter(keys, after);
      const page = keys.slice(from, from + max);
      const last = page.at(-1);
      const next = keys.length > from + max && last ? { NextToken: tokenOf(last) } : {};
      return json({ Items: page.map((Key) => ({ Key, Value: store.items.get(Key) })), ...next });
    },
  } satisfies Record<string, (request: KeyValueStoreRequest) => Promise<Answer>>;
}
