/**
 * The AWS side of deliveries, run as Lambda runs them against DynamoDB Local: the fan-out function (the bus's
 * event to one SQS job per webhook that wants it) and the delivery function (one attempt per receive; a failure
 * hidden in the queue until its retry time, reported failed so SQS keeps it). SQS is the real SDK client with
 * its calls answered by middleware (the test records them); DynamoDB is never stubbed.
 */
import { randomUUID } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { create as createDeliver } from '#functions/webhooks/deliver.ts';
import { create as createFanout } from '#functions/webhooks/fanout.ts';
import { webhookFanoutActions, webhookFanoutFunction } from '#infra/constructs/webhook-delivery.ts';
import { ActionRecorder } from '#infra/local/dynamodb-recorder.ts';
import { invoke } from '#infra/local/lambda.ts';
import { createApiKey, revokeApiKey } from '#lib/auth/data/key-admin.ts';
import { EVENT_SCHEMA_VERSION } from '#lib/feed/bus.ts';
import type { Scope } from '#lib/kinds.ts';
import { spaceExample } from '#lib/spaces/api/schema.ts';
import { showWebhook, storeWebhook } from '#lib/webhooks/data/webhooks.ts';
import type { DeliveryJob } from '#lib/webhooks/dispatch.ts';
import { config, db } from '#test/support/database.ts';
import { UNRECORDED_KEY } from '#test/support/keys.ts';
import { startReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const QUEUE_URL = 'https://sqs.eu-west-1.amazonaws.com/123456789012/deliveries';

/** An SQS client whose calls are recorded and answered here, as SQS would answer them. */
function recordingSqs() {
  const calls: { command: string; input: Record<string, unknown> }[] = [];
  const sqs = new SQSClient({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } });
  sqs.middlewareStack.add(
    (_next, context) => async (args) => {
      calls.push({ command: String(context.commandName), input: args.input as Record<string, unknown> });
      return { output: { $metadata: {}, Successful: [], Failed: [] }, response: {} } as never;
    },
    { step: 'initialize', name: 'recordSqs' },
  );
  return { sqs, calls };
}

let receiver: WebhookReceiver;
let owner: string;
beforeEach(async () => {
  receiver = await startReceiver();
  owner = `owner-${randomUUID()}`;
});
afterEach(() => receiver.close());

const event = (type = 'space.created') => ({
  id: '000000000007',
  type,
  created_at: new Date().toISOString(),
  data: { ...spaceExample, id: 1, color: 1 },
});

async function webhook(events: string[]) {
  const { result } = await storeWebhook(
    db,
    owner,
    { name: receiver.url(), events, enabled: true, description: null },
    UNRECORDED_KEY,
  );
  return result;
}

const settings = { ...config, webhookQueueUrl: QUEUE_URL, webhookLocalLoopback: true };

describe('the fan-out function', () => {
  it('queues one job per webhook of the owner that wants the event, the event as the feed lists it', async () => {
    // Prepare
    const wanted = await webhook(['space.*']);
    await webhook(['domain.*']);
    const { sqs, calls } = recordingSqs();
    const fanout = createFanout(settings, db, sqs);
    const change = event();
    // Act
    const result = await fanout({ detail: { schema_version: EVENT_SCHEMA_VERSION, owner, ...change } as never });
    // Assess
    expect(result).toEqual({ jobs: 1 });
    expect(calls.map((call) => call.command)).toEqual(['SendMessageBatchCommand']);
    const entries = calls[0]?.input.Entries as { MessageBody: string }[];
    expect(entries.map((entry) => JSON.parse(entry.MessageBody))).toEqual([
      { owner, webhookId: wanted.id, event: change, attempt: 1 },
    ]);
    expect(calls[0]?.input.QueueUrl).toBe(QUEUE_URL);
  });

  it('queues nothing for a webhook whose key was revoked, disables it, and issues only the actions it is granted', async () => {
    // Prepare: two webhooks directed by keys of the owner's, one of which is then revoked.
    const kept = await createApiKey(db, owner, 'kept', { scopes: ['spaces:read', 'webhooks:write'] });
    const revoked = await createApiKey(db, owner, 'revoked');
    const keyOf = (record: { prefix: string; scopes: Scope[] }) => ({ lineage: record.prefix, scopes: record.scopes });
    const hook = (key: ReturnType<typeof keyOf>) =>
      storeWebhook(db, owner, { name: receiver.url(), events: ['space.*'], enabled: true, description: null }, key);
    const live = (await hook(keyOf(kept.record))).result;
    const dead = (await hook(keyOf(revoked.record))).result;
    await revokeApiKey(db, revoked.record.prefix);
    const { sqs, calls } = recordingSqs();
    const fanout = createFanout(settings, db, sqs);
    const recorder = new ActionRecorder();
    const detach = recorder.attach(db.client.middlewareStack as never);
    // Act
    const change = event();
    const result = await invoke(webhookFanoutFunction.name, () =>
      fanout({ detail: { schema_version: EVENT_SCHEMA_VERSION, owner, ...change } as never }),
    ).finally(detach);
    // Assess
    expect(result).toEqual({ jobs: 1 });
    const entries = calls[0]?.input.Entries as { MessageBody: string }[];
    expect(entries.map((entry) => JSON.parse(entry.MessageBody).webhookId)).toEqual([live.id]);
    expect(await showWebhook(db, owner, dead.id)).toMatchObject({ enabled: false, disabledReason: 'key_revoked' });
    expect([...(recorder.actions.get(webhookFanoutFunction.name) ?? [])].sort()).toEqual(
      [...webhookFanoutActions].sort(),
    );
  });

  it('fails at cold start without its queue', () => {
    expect(() => createFanout(config, db)).toThrow('WEBHOOK_QUEUE_URL is required');
  });
});

describe('the delivery function', () => {
  const record = (job: DeliveryJob, receiveCount: number): SQSRecord =>
    ({
      messageId: randomUUID(),
      receiptHandle: `handle-${randomUUID()}`,
      body: JSON.stringify(job),
      attributes: { ApproximateReceiveCount: String(receiveCount) },
    }) as unknown as SQSRecord;

  it('reports a failed attempt failed and hides it until its retry; a delivered or given-up one is done', async () => {
    // Prepare: attempt n fails, retried after the schedule's n-th delay (1 s, then 2 s).
    const hook = await webhook(['*']);
    const { sqs, calls } = recordingSqs();
    const now = new Date();
    const deliver = createDeliver({ ...settings, webhookRetryDelays: '1s,2s' }, db, sqs, () => now);
    const job = { owner, webhookId: hook.id, event: event(), attempt: 1 };
    receiver.respondWith((response) => response.writeHead(500).end());
    const second = record(job, 2);
    const last = record(job, 3);
    // Act
    const failed = await deliver({ Records: [second, last] });
    receiver.respondWith((response) => response.writeHead(200).end());
    const delivered = await deliver({ Records: [record(job, 4)] });
    // Assess: the second receive is attempt 2, retried in 2 s ±10 %; the third was the schedule's last.
    expect(failed.batchItemFailures).toEqual([{ itemIdentifier: second.messageId }]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      command: 'ChangeMessageVisibilityCommand',
      input: { QueueUrl: QUEUE_URL, ReceiptHandle: second.receiptHandle },
    });
    expect(calls[0]?.input.VisibilityTimeout).toBeGreaterThanOrEqual(2);
    expect(calls[0]?.input.VisibilityTimeout).toBeLessThanOrEqual(3);
    expect(delivered.batchItemFailures).toEqual([]);
    expect(receiver.requests.map((request) => request.headers['webhook-id'])).toEqual(
      Array(3).fill(`msg_${hook.id}_${job.event.id}`),
    );
  });

  it("never asks SQS to hide a job for SQS's 12 h from the receive: at most 11 h, a longer schedule fails at cold start", async () => {
    // Prepare: the longest delay a schedule may hold, and one SQS would refuse once jittered (or at all)
    const hook = await webhook(['*']);
    const { sqs, calls } = recordingSqs();
    const now = new Date();
    const deliver = createDeliver({ ...settings, webhookRetryDelays: '10h' }, db, sqs, () => now);
    receiver.respondWith((response) => response.writeHead(500).end());
    // Act
    const failed = await deliver({ Records: [record({ owner, webhookId: hook.id, event: event(), attempt: 1 }, 1)] });
    // Assess: 10 h ±10 %, never 11 h or more (SQS rejects a change past 12 h counted from the receive)
    expect(failed.batchItemFailures).toHaveLength(1);
    expect(calls.map((call) => call.command)).toEqual(['ChangeMessageVisibilityCommand']);
    expect(calls[0]?.input.VisibilityTimeout).toBeGreaterThanOrEqual(9 * 3_600);
    expect(calls[0]?.input.VisibilityTimeout).toBeLessThanOrEqual(11 * 3_600);
    for (const delays of ['12h', '11h', '5s,10h,36000001ms']) {
      expect(() => createDeliver({ ...settings, webhookRetryDelays: delays }, db, sqs), delays).toThrow(
        'is longer than the longest delay, 10h',
      );
    }
  });

  it('drops a pending job of a webhook disabled because its key ended, without sending it', async () => {
    // Prepare: a job queued while the key was valid; the fan-out of a later event found it revoked.
    const key = await createApiKey(db, owner, 'ended');
    const { result: hook } = await storeWebhook(
      db,
      owner,
      { name: receiver.url(), events: ['*'], enabled: true, description: null },
      { lineage: key.record.prefix, scopes: key.record.scopes },
    );
    await revokeApiKey(db, key.record.prefix);
    await createFanout(
      settings,
      db,
      recordingSqs().sqs,
    )({
      detail: { schema_version: EVENT_SCHEMA_VERSION, owner, ...event() } as never,
    });
    const { sqs, calls } = recordingSqs();
    const deliver = createDeliver(settings, db, sqs);
    // Act
    const result = await deliver({ Records: [record({ owner, webhookId: hook.id, event: event(), attempt: 2 }, 2)] });
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(calls).toEqual([]);
    expect(receiver.connections).toBe(0);
  });

  it('drops the job of a deleted webhook without sending it', async () => {
    // Prepare
    const { sqs, calls } = recordingSqs();
    const deliver = createDeliver(settings, db, sqs);
    // Act
    const result = await deliver({
      Records: [record({ owner, webhookId: 424242, event: event(), attempt: 1 }, 1)],
    });
    // Assess
    expect(result.batchItemFailures).toEqual([]);
    expect(calls).toEqual([]);
    expect(receiver.connections).toBe(0);
  });
});
