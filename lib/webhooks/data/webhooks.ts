/**
 * Webhooks: endpoints an owner registers to be sent their changes (`lib/webhooks/dispatch.ts` delivers them).
 * A webhook's URL is its name (what a list sorts and searches by name); it holds the secrets deliveries are
 * signed with (the current one first; one rotated out stays valid for a day), never shown after store or
 * rotation and never carried by events (`item.ts`). Every write is a change (`changes.ts`): versioned, with
 * its event, idempotent with a key. What deliveries find (a run of failures) is bookkeeping, not a change;
 * five days of failures disable the webhook, which is a change (`webhook.disabled`).
 *
 * A webhook records the rotation line of the key that last directed it (`keyLineage`: stored it, changed its URL
 * or events, or enabled it), and that key must be able to read every event it subscribes to then
 * (`assertReadable`); deliveries are held to what the line's newest key may still read (`lib/webhooks/dispatch.ts`),
 * and the webhook is disabled once that key is revoked or expired (`disableForKey`). A webhook stored before
 * keys were recorded has no `keyLineage`: it delivers what it subscribes to, as it did, until a key directs it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { RequestKey } from '#lib/auth/rules/request-key.ts';
import {
  deleteRecord,
  getRecord,
  insertRecord,
  setBookkeeping,
  unchangedRecord,
  updateRecord,
} from '#lib/data/collection.ts';
import type { WriteOptions } from '#lib/data/commit.ts';
import type { Db } from '#lib/data/dynamodb.ts';
import { ItemNotFound } from '#lib/data/errors.ts';
import type { ResourceRecord } from '#lib/data/item.ts';
import { recordOf } from '#lib/data/item.ts';
import { ownerPartition } from '#lib/data/keys.ts';
import { collectionRange, type ListQuery, listRecords } from '#lib/data/listing.ts';
import type { Written } from '#lib/data/outcome.ts';
import { queryItems } from '#lib/data/query.ts';
import { assertReadable } from '#lib/webhooks/rules/event-patterns.ts';
import { newSigningSecret } from '#lib/webhooks/rules/signature.ts';

const kind = 'webhook';

/** Webhooks one owner may hold unless the stack says otherwise (`MAX_WEBHOOKS_PER_OWNER`). */
export const DEFAULT_WEBHOOKS_PER_OWNER = 10;
/** How long a secret rotated out still signs deliveries, beside the new one. */
export const ROTATED_SECRET_VALID_MS = 24 * 3600 * 1000;

export type DisabledReason = 'owner' | 'failing' | KeyEnded;
/** Why a webhook's key can no longer direct it. */
export type KeyEnded = 'key_revoked' | 'key_expired';

/** A signing secret, and until when it signs (absent: the current one). */
export type SigningSecret = { value: string; expiresAt?: string };

export type WebhookRecord = ResourceRecord & {
  /** The URL deliveries are POSTed to (the webhook's name: `name` is what every collection sorts by). */
  name: string;
  /** Event type patterns (`lib/webhooks/rules/event-patterns.ts`). */
  events: string[];
  enabled: boolean;
  description: string | null;
  /** When it was last enabled (stored, or enabled again): events before it are not its to deliver. */
  enabledAt: string;
  /** When it was last disabled (absent while enabled, or never). */
  disabledAt?: string;
  /**
   * Why it is disabled: by its owner; by failing for 5 days in a row; or because the key that directed it (its
   * rotation line's newest key) was revoked or expired.
   */
  disabledReason?: DisabledReason;
  /** The rotation line of the key that last directed it (absent: stored before keys were recorded). */
  keyLineage?: string;
  /** The current secret first. */
  secrets: SigningSecret[];
  /** Bookkeeping: when its current run of failed deliveries began (absent: the last one succeeded). */
  failingSince?: string;
};

/** What the owner writes of a webhook. */
type Writable = Pick<WebhookRecord, 'name' | 'events' | 'enabled' | 'description'>;
export type NewWebhook = Writable;
export type WebhookChanges = { [F in keyof Writable]?: Writable[F] };

/** A webhook as stored, with the secret it was given (its store's answer, once). */
export type WebhookWithSecret = { webhook: WebhookRecord; secret: string };

export const showWebhook = (db: Db, owner: string, id: number) => getRecord<WebhookRecord>(db, owner, kind, id);

export const listWebhooks = (db: Db, owner: string, query: ListQuery) =>
  listRecords<WebhookRecord>(db, owner, kind, query);

/** Every webhook of the owner (at most the quota: one Query), for the events' fan-out. */
export async function allWebhooks(db: Db, owner: string): Promise<WebhookRecord[]> {
  const { from, to } = collectionRange(kind);
  const items = await queryItems(
    db,
    {
      TableName: db.tableName,
      KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
      ExpressionAttributeValues: { ':pk': ownerPartition(owner), ':from': from, ':to': to },
      ConsistentRead: true,
    },
    undefined,
    quotaOf(db),
  );
  return items.map((item) => recordOf<WebhookRecord>(kind, item));
}

/** The secrets that sign a delivery at `now`: the current one, and one rotated out less than a day ago. */
export const signingSecrets = (webhook: WebhookRecord, now: Date): string[] =>
  webhook.secrets
    .filter((secret) => secret.expiresAt === undefined || Date.parse(secret.expiresAt) > now.getTime())
    .map((secret) => secret.value);

const quotaOf = (db: Db) => db.maxWebhooksPerOwner ?? DEFAULT_WEBHOOKS_PER_OWNER;

/** The record's `keyLineage` for a key (none for one whose line the request did not carry). */
const lineageOf = (key: RequestKey) => (key.lineage === null ? {} : { keyLineage: key.lineage });

/**
 * Stores a webhook with a new secret, directed by `key`: it may subscribe only to events the key could read,
 * and records the key's line. The answer is the only time the secret is shown.
 */
export async function storeWebhook(
  db: Db,
  owner: string,
  webhook: NewWebhook,
  key: RequestKey,
  options?: WriteOptions,
): Promise<Written<WebhookRecord>> {
  assertReadable(webhook.events, key.scopes);
  const secret = newSigningSecret();
  return await insertRecord<WebhookRecord>(
    db,
    owner,
    kind,
    {},
    (id, now) => ({
      ...webhook,
      ...lineageOf(key),
      id,
      enabledAt: now,
      // Stored disabled: by its owner, from the start (it delivers nothing until enabled).
      ...(webhook.enabled ? {} : { disabledAt: now, disabledReason: 'owner' as const }),
      secrets: [{ value: secret }],
      createdAt: now,
      updatedAt: now,
    }),
    { ...options, quota: quotaOf(db) },
  );
}

export const destroyWebhook = (db: Db, owner: string, id: number, options?: WriteOptions) =>
  deleteRecord<WebhookRecord>(db, owner, kind, id, () => ({ guards: {} }), options);

/** The record after enabling or disabling it (by its owner), or as it is when `enabled` does not change it. */
function withEnabled(current: WebhookRecord, enabled: boolean | undefined, now: string): WebhookRecord {
  if (enabled === undefined || enabled === current.enabled) return current;
  const { disabledAt: _at, disabledReason: _reason, failingSince: _failing, ...rest } = current;
  return enabled
    ? { ...rest, enabled: true, enabledAt: now }
    : { ...rest, enabled: false, disabledAt: now, disabledReason: 'owner' };
}

/** Whether a change sends the webhook's events elsewhere, to other events, or starts them again. */
const directs = (current: WebhookRecord, next: WebhookRecord) =>
  next.name !== current.name || !isDeepStrictEqual(next.events, current.events) || (next.enabled && !current.enabled);

/**
 * Updates a webhook (`updateRecord`: read, then one transaction with the event, conditional on the version read).
 * Enabling it again starts it afresh: it delivers the events from then on, its failures forgotten. A change that
 * directs it (a new URL, new events, enabling it) is the key's: the key must be able to read every event the
 * webhook then subscribes to (`EventsBeyondKey` otherwise, nothing written), and its line is recorded. Any other
 * change (a description, disabling) keeps the key it had.
 */
export async function updateWebhook(
  db: Db,
  owner: string,
  id: number,
  changes: WebhookChanges,
  key: RequestKey,
  options: WriteOptions = {},
): Promise<Written<WebhookRecord>> {
  const present = (Object.keys(changes) as (keyof WebhookChanges)[]).filter((field) => changes[field] !== undefined);
  if (present.length === 0) return unchangedRecord<WebhookRecord>(db, owner, kind, id, options);
  return updateRecord<WebhookRecord>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      const set = Object.fromEntries(
        present.filter((field) => field !== 'enabled').map((field) => [field, changes[field]]),
      );
      const next = withEnabled({ ...current, ...set }, changes.enabled, now);
      if (!directs(current, next)) return { record: { ...next, updatedAt: now } };
      assertReadable(next.events, key.scopes, changes.events === undefined ? 'webhook' : 'sent');
      const { keyLineage: _previous, ...rest } = next;
      return { record: { ...rest, ...lineageOf(key), updatedAt: now } };
    },
    options,
  );
}

/**
 * Gives the webhook a new secret, keeping the one it had valid for a day (deliveries carry both signatures),
 * and drops any older one. Returns the webhook and the new secret: shown once, in the answer.
 */
export async function rotateSecret(
  db: Db,
  owner: string,
  id: number,
  options: WriteOptions = {},
): Promise<Written<WebhookWithSecret>> {
  const secret = newSigningSecret();
  const written = await updateRecord<WebhookRecord>(
    db,
    owner,
    kind,
    id,
    (current, now) => {
      const expiresAt = new Date(Date.parse(now) + ROTATED_SECRET_VALID_MS).toISOString();
      const previous = current.secrets[0];
      const secrets = previous ? [{ value: secret }, { value: previous.value, expiresAt }] : [{ value: secret }];
      return { record: { ...current, secrets, updatedAt: now } };
    },
    options,
  );
  return { ...written, result: { webhook: written.result, secret: written.result.secrets[0]?.value ?? secret } };
}

/**
 * Records how a delivery went for the webhook's run of failures (bookkeeping: no version, no event): a success
 * ends the run, a failure starts one or keeps it. Starts from the webhook as the attempt read it: most attempts
 * change nothing and cost no I/O here; the webhook is read again only when it changed meanwhile (the write is
 * conditional on its version). Returns the webhook as it is now, or null once it is gone.
 */
export async function recordOutcome(
  db: Db,
  owner: string,
  webhook: WebhookRecord,
  succeeded: boolean,
  at: Date,
): Promise<WebhookRecord | null> {
  let current: WebhookRecord | null = webhook;
  for (let reads = 0; current && reads < 2; reads++) {
    if (succeeded === (current.failingSince === undefined)) return current;
    const failingSince = succeeded ? undefined : at.toISOString();
    if (await setBookkeeping(db, owner, kind, current, { failingSince })) {
      const { failingSince: _ended, ...rest } = current;
      return failingSince ? { ...rest, failingSince } : rest;
    }
    current = await showWebhook(db, owner, current.id).catch(nullWhenGone);
  }
  return current;
}

/**
 * Disables a webhook that has failed for 5 days in a row: a change with its `webhook.disabled` event, and the
 * reason on the resource. Nothing when it was disabled, enabled afresh or deleted meanwhile.
 */
export async function disableFailing(db: Db, owner: string, id: number, failingSince: string): Promise<void> {
  await updateRecord<WebhookRecord>(db, owner, kind, id, (current, now) => {
    if (!current.enabled || current.failingSince !== failingSince) return { record: current };
    return {
      record: { ...current, enabled: false, disabledAt: now, disabledReason: 'failing', updatedAt: now },
      type: 'webhook.disabled',
    };
  }).catch(nullWhenGone);
}

/**
 * Disables a webhook whose key has ended: its rotation line's newest key was revoked or expired. A change with its
 * `webhook.disabled` event, the reason on the resource. Nothing when it is disabled already, or a key has
 * directed it since (another line), or it was deleted meanwhile.
 */
export async function disableForKey(
  db: Db,
  owner: string,
  id: number,
  lineage: string,
  reason: KeyEnded,
): Promise<void> {
  await updateRecord<WebhookRecord>(db, owner, kind, id, (current, now) => {
    if (!current.enabled || current.keyLineage !== lineage) return { record: current };
    return {
      record: { ...current, enabled: false, disabledAt: now, disabledReason: reason, updatedAt: now },
      type: 'webhook.disabled',
    };
  }).catch(nullWhenGone);
}

const nullWhenGone = (error: unknown) => {
  if (error instanceof ItemNotFound) return null;
  throw error;
};
