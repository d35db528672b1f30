/**
 * The local CloudFront KeyValueStore through the real `@aws-sdk/client-cloudfront-keyvaluestore` (SigV4A-signed,
 * its endpoint prefixed with the store's account): conditional writes on the store's ETag, the quotas on keys,
 * values, batches and the store, paging, and the refusal of a request not signed with SigV4A.
 */

import { Agent } from 'node:http';
import {
  CloudFrontKeyValueStoreClient,
  CloudFrontKeyValueStoreServiceException,
  ConflictException,
  DeleteKeyCommand,
  DescribeKeyValueStoreCommand,
  GetKeyCommand,
  ListKeysCommand,
  PutKeyCommand,
  ResourceNotFoundException,
  ServiceQuotaExceededException,
  UpdateKeysCommand,
  ValidationException,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
import { describe, expect, it, onTestFinished } from 'vitest';
import { KEY_VALUE_STORE_LIMITS } from '#infra/local/cloudfront/index.ts';
import { TEST_CREDENTIALS } from '#test/support/cloudfront-harness.ts';
import { failure, harness } from './cloudfront-support.ts';

type Harness = Awaited<ReturnType<typeof harness>>;

const etagOf = async (cf: Harness) =>
  (await cf.clients.keyValueStore.send(new DescribeKeyValueStoreCommand({ KvsARN: cf.store.arn }))).ETag ?? '';

const put = async (cf: Harness, Key: string, Value: string, IfMatch?: string) =>
  cf.clients.keyValueStore.send(
    new PutKeyCommand({ KvsARN: cf.store.arn, Key, Value, IfMatch: IfMatch ?? (await etagOf(cf)) }),
  );

/** `count` keys `key-00000`… with `valueBytes`-byte values, written 50 at a time. */
async function fill(cf: Harness, count: number, valueBytes: number) {
  for (let start = 0; start < count; start += KEY_VALUE_STORE_LIMITS.batchKeys) {
    const Puts = Array.from({ length: Math.min(KEY_VALUE_STORE_LIMITS.batchKeys, count - start) }, (_, index) => ({
      Key: `key-${String(start + index).padStart(5, '0')}`,
      Value: 'v'.repeat(valueBytes),
    }));
    await cf.clients.keyValueStore.send(
      new UpdateKeysCommand({ KvsARN: cf.store.arn, IfMatch: await etagOf(cf), Puts }),
    );
  }
}

describe('reads', () => {
  it('describes a store: its ETag, item count, size and status', async () => {
    // Prepare
    const cf = await harness();
    await put(cf, 'a', 'bc');

    // Act
    const described = await cf.clients.keyValueStore.send(new DescribeKeyValueStoreCommand({ KvsARN: cf.store.arn }));

    // Assess
    expect(described).toMatchObject({ KvsARN: cf.store.arn, ItemCount: 1, TotalSizeInBytes: 3, Status: 'READY' });
    expect(described.ETag).toMatch(/^KV/);
    expect(described.Created).toBeInstanceOf(Date);
  });

  it('gets a value, and answers ResourceNotFoundException (404) for a key the store does not hold', async () => {
    // Prepare
    const cf = await harness();
    await put(cf, 'café/ä b?', 'value');

    // Act
    const found = await cf.clients.keyValueStore.send(new GetKeyCommand({ KvsARN: cf.store.arn, Key: 'café/ä b?' }));
    const error = await failure(
      cf.clients.keyValueStore.send(new GetKeyCommand({ KvsARN: cf.store.arn, Key: 'nope' })),
    );

    // Assess
    expect(found).toMatchObject({ Key: 'café/ä b?', Value: 'value', ItemCount: 1 });
    expect(error).toBeInstanceOf(ResourceNotFoundException);
    expect(error.$metadata.httpStatusCode).toBe(404);
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'café/ä b?')).toBe('value');
  });

  it('answers ResourceNotFoundException (404) for an unknown store', async () => {
    // Prepare
    const cf = await harness();
    const KvsARN = cf.store.arn.replace(/[0-9a-f]{8}$/, '00000000');

    // Act
    const error = await failure(cf.clients.keyValueStore.send(new DescribeKeyValueStoreCommand({ KvsARN })));

    // Assess
    expect(error).toBeInstanceOf(ResourceNotFoundException);
  });

  it('pages ListKeys by MaxResults and NextToken, 10 by default, at most 50', async () => {
    // Prepare
    const cf = await harness();
    await fill(cf, 23, 1);
    const list = (MaxResults?: number, NextToken?: string) =>
      cf.clients.keyValueStore.send(new ListKeysCommand({ KvsARN: cf.store.arn, MaxResults, NextToken }));

    // Act
    const pages = [await list(10)];
    while (pages.at(-1)?.NextToken) pages.push(await list(10, pages.at(-1)?.NextToken));
    const byDefault = await list();
    const tooMany = await failure(list(51));

    // Assess
    expect(pages.map((page) => page.Items?.length)).toEqual([10, 10, 3]);
    const keys = pages.flatMap((page) => page.Items?.map((item) => item.Key) ?? []);
    expect(keys).toEqual(Array.from({ length: 23 }, (_, index) => `key-${String(index).padStart(5, '0')}`));
    expect(byDefault.Items).toHaveLength(10);
    expect(tooMany).toBeInstanceOf(ValidationException);
    expect(tooMany.$metadata.httpStatusCode).toBe(400);
  });
});

describe('writes', () => {
  it('puts and deletes with the current ETag, each write giving the store a new one', async () => {
    // Prepare
    const cf = await harness();
    const before = await etagOf(cf);

    // Act
    const putted = await put(cf, 'host', '{"s":"active"}', before);
    const deleted = await cf.clients.keyValueStore.send(
      new DeleteKeyCommand({ KvsARN: cf.store.arn, Key: 'host', IfMatch: putted.ETag }),
    );

    // Assess
    expect(putted).toMatchObject({ ItemCount: 1, TotalSizeInBytes: 18 });
    expect(new Set([before, putted.ETag, deleted.ETag]).size).toBe(3);
    expect(deleted.ItemCount).toBe(0);
    expect(await etagOf(cf)).toBe(deleted.ETag);
  });

  it('refuses a write with a stale ETag (ConflictException, 409), changing nothing', async () => {
    // Prepare
    const cf = await harness();
    const stale = await etagOf(cf);
    await put(cf, 'first', '1', stale);

    // Act
    const putError = await failure(put(cf, 'second', '2', stale));
    const deleteError = await failure(
      cf.clients.keyValueStore.send(new DeleteKeyCommand({ KvsARN: cf.store.arn, Key: 'first', IfMatch: stale })),
    );

    // Assess
    expect(putError).toBeInstanceOf(ConflictException);
    expect(putError.$metadata.httpStatusCode).toBe(409);
    expect(deleteError).toBeInstanceOf(ConflictException);
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'first')).toBe('1');
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'second')).toBeNull();
  });

  it('refuses a write without If-Match (ValidationException, 400) and a delete of a missing key (ResourceNotFoundException, 404)', async () => {
    // Prepare
    const cf = await harness();

    // Act
    const withoutIfMatch = await failure(
      cf.clients.keyValueStore.send(
        new PutKeyCommand({ KvsARN: cf.store.arn, Key: 'k', Value: 'v', IfMatch: undefined }),
      ),
    );
    const missingKey = await failure(
      cf.clients.keyValueStore.send(
        new DeleteKeyCommand({ KvsARN: cf.store.arn, Key: 'k', IfMatch: await etagOf(cf) }),
      ),
    );

    // Assess
    expect(withoutIfMatch).toBeInstanceOf(ValidationException);
    expect(withoutIfMatch.$metadata.httpStatusCode).toBe(400);
    expect(missingKey).toBeInstanceOf(ResourceNotFoundException);
    expect(missingKey.$metadata.httpStatusCode).toBe(404);
  });

  it('accepts a value of exactly 1,024 bytes and refuses 1,025 (ValidationException, 400), counting UTF-8 bytes', async () => {
    // Prepare
    const cf = await harness();

    // Act
    const accepted = await put(cf, 'a', 'é'.repeat(512));
    const error = await failure(put(cf, 'b', `${'é'.repeat(512)}x`));

    // Assess
    expect(accepted.TotalSizeInBytes).toBe(1 + 1024);
    expect(error).toBeInstanceOf(ValidationException);
    expect(error.$metadata.httpStatusCode).toBe(400);
  });

  it('accepts a key of exactly 512 bytes and refuses 513 (ValidationException, 400)', async () => {
    // Prepare
    const cf = await harness();

    // Act
    const accepted = await put(cf, 'k'.repeat(512), 'v');
    const error = await failure(put(cf, `${'k'.repeat(511)}é`, 'v'));

    // Assess
    expect(accepted.ItemCount).toBe(1);
    expect(error).toBeInstanceOf(ValidationException);
  });

  it('fills a store up to 5 MB and refuses the next put (ServiceQuotaExceededException, 402)', async () => {
    // Prepare: as many 9-byte keys with 1,024-byte values as fit, then one key filling the store to the byte.
    const cf = await harness();
    const count = Math.floor(KEY_VALUE_STORE_LIMITS.storeBytes / (9 + 1024));
    await fill(cf, count, 1024);
    const used = count * (9 + 1024);
    const last = 'z'.repeat(KEY_VALUE_STORE_LIMITS.storeBytes - used - 1);

    // Act
    const full = await put(cf, 'y', last);
    const error = await failure(put(cf, 'x', '1'));

    // Assess
    expect(full.TotalSizeInBytes).toBe(5 * 1024 * 1024);
    expect(error).toBeInstanceOf(ServiceQuotaExceededException);
    expect(error.$metadata.httpStatusCode).toBe(402);
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'x')).toBeNull();
  });

  it('applies UpdateKeys all or nothing, and refuses more than 50 keys at once (ValidationException, 400)', async () => {
    // Prepare
    const cf = await harness();
    await put(cf, 'old', '1');
    const update = async (Puts: { Key: string; Value: string }[], Deletes: { Key: string }[] = []) =>
      cf.clients.keyValueStore.send(
        new UpdateKeysCommand({ KvsARN: cf.store.arn, IfMatch: await etagOf(cf), Puts, Deletes }),
      );
    const many = Array.from({ length: 51 }, (_, index) => ({ Key: `k${index}`, Value: 'v' }));

    // Act
    const tooMany = await failure(update(many));
    const oneBad = await failure(
      update(
        [
          { Key: 'new', Value: 'ok' },
          { Key: 'bad', Value: 'v'.repeat(1025) },
        ],
        [{ Key: 'old' }],
      ),
    );
    const applied = await update([{ Key: 'new', Value: 'ok' }], [{ Key: 'old' }]);

    // Assess
    expect(tooMany).toBeInstanceOf(ValidationException);
    expect(oneBad).toBeInstanceOf(ValidationException);
    expect(applied.ItemCount).toBe(1);
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'new')).toBe('ok');
    expect(cf.cloudFront.kvsValue(cf.store.arn, 'old')).toBeNull();
  });
});

describe('every KeyValueStore call', () => {
  it('is throttled on demand with ThrottlingException (400), which the SDK retries', async () => {
    // Prepare
    const cf = await harness();
    const retrying = cf.clientsWith({ maxAttempts: 3 });

    // Act
    cf.cloudFront.throttleNext('DescribeKeyValueStore', 1);
    const throttled = await failure(etagOf(cf));
    cf.cloudFront.throttleNext('DescribeKeyValueStore', 1);
    const retried = await retrying.keyValueStore.send(new DescribeKeyValueStoreCommand({ KvsARN: cf.store.arn }));

    // Assess
    expect(throttled).toBeInstanceOf(CloudFrontKeyValueStoreServiceException);
    expect(throttled.name).toBe('ThrottlingException');
    expect(throttled.$metadata.httpStatusCode).toBe(400);
    expect(retried.$metadata.attempts).toBe(2);
  });

  it('must be signed with SigV4A: a SigV4-signed request is refused (InvalidSignatureException, 403)', async () => {
    // Prepare: the real client, its auth scheme forced to SigV4 (as a client without SigV4A support would sign).
    const cf = await harness();
    const sigV4Only = new CloudFrontKeyValueStoreClient({
      endpoint: cf.cloudFront.kvsEndpoint,
      requestHandler: { httpAgent: new Agent({ lookup: cf.cloudFront.lookup }) },
      region: 'us-east-1',
      credentials: TEST_CREDENTIALS,
      maxAttempts: 1,
      httpAuthSchemeProvider: () => [
        {
          schemeId: 'aws.auth#sigv4',
          signingProperties: { name: 'cloudfront-keyvaluestore', region: 'us-east-1' },
          propertiesExtractor: (config, context) => ({ signingProperties: { config, context } }),
        },
      ],
    });
    onTestFinished(() => sigV4Only.destroy());

    // Act
    const error = await failure(sigV4Only.send(new DescribeKeyValueStoreCommand({ KvsARN: cf.store.arn })));
    const signedWith = cf.cloudFront.calls.at(-1);

    // Assess
    expect(error.name).toBe('InvalidSignatureException');
    expect(error.$metadata.httpStatusCode).toBe(403);
    expect(signedWith).toMatchObject({ operation: 'DescribeKeyValueStore', errorCode: 'InvalidSignatureException' });
  });

  it('must be signed with the right secret: a wrong one is refused (InvalidSignatureException, 403)', async () => {
    // Prepare
    const cf = await harness();
    const wrongSecret = new CloudFrontKeyValueStoreClient({
      endpoint: cf.cloudFront.kvsEndpoint,
      requestHandler: { httpAgent: new Agent({ lookup: cf.cloudFront.lookup }) },
      region: 'us-east-1',
      credentials: { accessKeyId: TEST_CREDENTIALS.accessKeyId, secretAccessKey: 'wrong' },
      maxAttempts: 1,
    });
    onTestFinished(() => wrongSecret.destroy());

    // Act
    const error = await failure(wrongSecret.send(new ListKeysCommand({ KvsARN: cf.store.arn, MaxResults: 5 })));

    // Assess
    expect(error.name).toBe('InvalidSignatureException');
    expect(error.message).toMatch(/does not match the signature you provided/);
    expect(error.$metadata.httpStatusCode).toBe(403);
  });

  it('must be signed: an unsigned request is refused (MissingAuthenticationToken, 403)', async () => {
    // Prepare
    const cf = await harness();

    // Act
    const answer = await fetch(`${cf.cloudFront.endpoint}/key-value-stores/${encodeURIComponent(cf.store.arn)}`);

    // Assess
    expect(answer.status).toBe(403);
    expect(answer.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationToken');
  });
});
