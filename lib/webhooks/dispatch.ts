/**
 * Delivering the owner's changes to their webhooks. An event, as the feed lists it, fans out to one job per
 * webhook that wants it (its patterns match, and it was enabled when the event was created) and whose key may
 * read it: the newest key of the rotation line that directed the webhook (`keyLineage`) must be active and hold
 * the event's collection's read scope, as it would to see the event in the feed; a webhook whose key was revoked
 * or expired is disabled then (`key_revoked`, `key_expired`), and its pending attempts are dropped. Each job is
 * attempted (`attemptDelivery`): the webhook read as it is now (deleted: dropped), the event POSTed signed with
 * its secrets (`deliver`: the destination checked again, a 10 s deadline), the attempt recorded, the webhook's
 * run of failures kept; a failure is retried on the schedule, and a webhook failing for 5 days in a row is
 * disabled. Where the jobs wait between attempts is the caller's: SQS on AWS (`functions/webhooks/deliver.ts`),
 * timers on the local stack (`infra/local/webhook-worker.ts`).
 */
import { type LineState, lineState } from '#lib/auth/data/keys.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { ItemNotFound } from '#lib/data/errors.ts';
import { type DeliveryRecord, recordDelivery } from '#lib/webhooks/data/deliveries.ts';
import {
  allWebhooks,
  disableFailing,
  disableForKey,
  recordOutcome,
  showWebhook,
  signingSecrets,
  type WebhookRecord,
} from '#lib/webhooks/data/webhooks.ts';
import type { Resolve } from '#lib/webhooks/rules/address.ts';
import { matchesPatterns, readsEvent } from '#lib/webhooks/rules/event-patterns.ts';
import { type DeliveryFailure, isTransportFailure } from '#lib/webhooks/rules/failures.ts';
import { nextAttemptAt, type RetrySchedule, shouldDisable } from '#lib/webhooks/rules/schedule.ts';
import { messageIdOf, webhookHeaders } from '#lib/webhooks/rules/signature.ts';
import { type DeliveryError, deliver } from '#lib/webhooks/send.ts';

/** An event as the feed lists it (what a delivery's body is). */
export type DeliveredEvent = { id: string; type: string; created_at: string; data: unknown };

/** One event to one webhook, and which attempt is next (from 1). */
export type DeliveryJob = { owner: string; webhookId: number; event: DeliveredEvent; attempt: number };

export type DispatchDeps = {
  db: Db;
  schedule: RetrySchedule;
  /** The local stack: `http://` to loopback allowed. Never on AWS. */
  allowLoopback?: boolean;
  /** The local stack's own ports, never a destination. None on AWS. */
  reservedPorts?: ReadonlySet<number>;
  resolve?: Resolve;
  timeoutMs?: number;
  now?: () => Date;
};

/** Whether the webhook was enabled when an event was created at `at` (its last enabled span holds it). */
export function enabledAt(webhook: WebhookRecord, at: string): boolean {
  if (at < webhook.enabledAt) return false;
  return webhook.enabled || (webhook.disabledAt !== undefined && at < webhook.disabledAt);
}

/** Whether the webhook is to be sent the event: it wants its type, and was enabled when it was created. */
export const wants = (webhook: WebhookRecord, event: DeliveredEvent): boolean =>
  matchesPatterns(webhook.events, event.type) && enabledAt(webhook, event.created_at);

/**
 * Whether the webhook's key may have the event delivered: its line's newest key is active and reads the event's
 * collection. A webhook stored before keys were recorded (no `keyLineage`) may, as before. One whose key has
 * ended is disabled (a change: `webhook.disabled`), and is sent nothing.
 */
async function keyAllows(
  db: Db,
  owner: string,
  webhook: WebhookRecord,
  event: DeliveredEvent,
  lineOf: (lineage: string) => Promise<LineState>,
): Promise<boolean> {
  if (webhook.keyLineage === undefined) return true;
  const line = await lineOf(webhook.keyLineage);
  if (line.state === 'active') return readsEvent(line.scopes, event.type);
  await disableForKey(
    db,
    owner,
    webhook.id,
    webhook.keyLineage,
    line.state === 'revoked' ? 'key_revoked' : 'key_expired',
  );
  return false;
}

/**
 * The jobs an event of the owner's makes: the first attempt to each webhook that wants it and whose key may have
 * it. One Query of the webhooks; then, if any of those that want it recorded a key, one or two GetItems per key
 * line (`lineState`), once per call whatever the number of webhooks of that line.
 */
export async function fanOut(
  db: Db,
  owner: string,
  event: DeliveredEvent,
  now: Date = new Date(),
): Promise<DeliveryJob[]> {
  const wanting = (await allWebhooks(db, owner)).filter((webhook) => wants(webhook, event));
  const lines = new Map<string, Promise<LineState>>();
  const lineOf = (lineage: string) => {
    const known = lines.get(lineage) ?? lineState(db, lineage, now);
    lines.set(lineage, known);
    return known;
  };
  const allowed = await Promise.all(wanting.map((webhook) => keyAllows(db, owner, webhook, event, lineOf)));
  return wanting
    .filter((_, index) => allowed[index])
    .map((webhook) => ({ owner, webhookId: webhook.id, event, attempt: 1 }));
}

/** Whether the webhook was disabled because its key ended: nothing more goes to it, pending attempts included. */
const keyEnded = (webhook: WebhookRecord) =>
  webhook.disabledReason === 'key_revoked' || webhook.disabledReason === 'key_expired';

/** What became of an attempt: delivered; to be tried again at `retryAt`; given up (the schedule ran out); dropped. */
export type AttemptOutcome =
  | { outcome: 'delivered' }
  | { outcome: 'retry'; retryAt: Date }
  | { outcome: 'given-up' }
  | { outcome: 'dropped'; reason: 'webhook-gone' | 'key-ended' };

/** A delivery's failure as the attempts list says it: the destination's refusals are one. */
const failureOf = (error: DeliveryError | undefined): DeliveryFailure | undefined => {
  if (error === undefined) return undefined;
  return isTransportFailure(error) ? error : 'destination';
};

/**
 * POSTs the event to the webhook, signed with its secrets, and records the attempt (and the webhook's run of
 * failures). Returns the attempt as recorded.
 */
export async function sendEvent(
  deps: DispatchDeps,
  owner: string,
  webhook: WebhookRecord,
  event: DeliveredEvent,
  attempt: number,
): Promise<DeliveryRecord> {
  const now = (deps.now ?? (() => new Date()))();
  const body = JSON.stringify(event);
  const messageId = messageIdOf(webhook.id, event.id);
  const headers = webhookHeaders(signingSecrets(webhook, now), messageId, Math.floor(now.getTime() / 1000), body);
  const result = await deliver({
    url: webhook.name,
    body,
    headers,
    ...(deps.timeoutMs === undefined ? {} : { timeoutMs: deps.timeoutMs }),
    ...(deps.resolve ? { resolve: deps.resolve } : {}),
    allowLoopback: deps.allowLoopback ?? false,
    ...(deps.reservedPorts ? { reservedPorts: deps.reservedPorts } : {}),
  });
  const error = failureOf(result.error);
  const delivery: DeliveryRecord = {
    webhookId: webhook.id,
    eventId: event.id,
    eventType: event.type,
    messageId,
    attempt,
    ...(result.statusCode === undefined ? {} : { statusCode: result.statusCode }),
    ...(error === undefined ? {} : { error }),
    durationMs: result.durationMs,
    createdAt: now.toISOString(),
    succeeded: result.ok,
    responseExcerpt: result.responseExcerpt,
  };
  await recordDelivery(deps.db, owner, delivery);
  const after = await recordOutcome(deps.db, owner, webhook, result.ok, now);
  const failingSince = after?.failingSince;
  if (!result.ok && failingSince && after.enabled && shouldDisable(new Date(failingSince), now)) {
    await disableFailing(deps.db, owner, webhook.id, failingSince);
  }
  return delivery;
}

/**
 * One attempt of a job: the webhook as it is now (deleted, or disabled because its key ended: dropped), the event
 * sent, and what is to become of the job.
 */
export async function attemptDelivery(deps: DispatchDeps, job: DeliveryJob): Promise<AttemptOutcome> {
  const webhook = await showWebhook(deps.db, job.owner, job.webhookId).catch((error: unknown) => {
    if (error instanceof ItemNotFound) return null;
    throw error;
  });
  if (!webhook) return { outcome: 'dropped', reason: 'webhook-gone' };
  if (keyEnded(webhook)) return { outcome: 'dropped', reason: 'key-ended' };
  const delivery = await sendEvent(deps, job.owner, webhook, job.event, job.attempt);
  if (delivery.succeeded) return { outcome: 'delivered' };
  const retryAt = nextAttemptAt(deps.schedule, job.attempt, (deps.now ?? (() => new Date()))());
  return retryAt ? { outcome: 'retry', retryAt } : { outcome: 'given-up' };
}
