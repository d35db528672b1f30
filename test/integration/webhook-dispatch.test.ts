/**
 * The dispatch against DynamoDB Local and a real receiver: which webhooks an event fans out to, what becomes
 * of an attempt (delivered, retried on the schedule, given up, dropped), and an endpoint failing for 5 days in
 * a row disabled with its reason and a `webhook.disabled` event. The clock is injected (`now`), so five days
 * pass in a test.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listEvents } from '#lib/data/events.ts';
import { spaceExample } from '#lib/spaces/api/schema.ts';
import { listDeliveries } from '#lib/webhooks/data/deliveries.ts';
import { showWebhook, storeWebhook, updateWebhook, type WebhookRecord } from '#lib/webhooks/data/webhooks.ts';
import { attemptDelivery, type DeliveredEvent, type DispatchDeps, enabledAt, fanOut } from '#lib/webhooks/dispatch.ts';
import { db } from '#test/support/database.ts';
import { UNRECORDED_KEY } from '#test/support/keys.ts';
import { startReceiver, type WebhookReceiver } from '#test/support/webhook-receiver.ts';

const DAY = 24 * 3_600_000;
let receiver: WebhookReceiver;
let owner: string;

beforeEach(async () => {
  receiver = await startReceiver();
  owner = `owner-${randomUUID()}`;
});
afterEach(() => receiver.close());

const eventAt = (createdAt: string, type = 'space.created'): DeliveredEvent => ({
  id: String(Date.parse(createdAt) % 1e12).padStart(12, '0'),
  type,
  created_at: createdAt,
  data: { ...spaceExample, id: 1 },
});

async function webhook(fields: Partial<Pick<WebhookRecord, 'events' | 'enabled'>> = {}): Promise<WebhookRecord> {
  const { result } = await storeWebhook(
    db,
    owner,
    {
      name: receiver.url(),
      events: fields.events ?? ['*'],
      enabled: fields.enabled ?? true,
      description: null,
    },
    UNRECORDED_KEY,
  );
  return result;
}

/** Dispatch with a clock that reads `clock.now`. */
function depsAt(clock: { now: Date }, schedule = [1_000, 2_000]): DispatchDeps {
  return { db, schedule, allowLoopback: true, now: () => clock.now };
}

describe('the fan-out', () => {
  it('makes one job per webhook that wants the event: its types, enabled when the event was created', async () => {
    // Prepare
    const all = await webhook();
    const spaces = await webhook({ events: ['space.*'] });
    await webhook({ events: ['domain.created'] });
    await webhook({ enabled: false });
    const now = new Date().toISOString();
    // Act
    const jobs = await fanOut(db, owner, eventAt(now));
    const otherOwner = await fanOut(db, `owner-${randomUUID()}`, eventAt(now));
    // Assess
    expect(jobs.map((job) => job.webhookId).sort()).toEqual([all.id, spaces.id].sort());
    expect(jobs.every((job) => job.attempt === 1 && job.owner === owner)).toBe(true);
    expect(otherOwner).toEqual([]);
  });

  it('skips events from before a webhook was stored, and those made while it was disabled', async () => {
    // Prepare
    const before = new Date(Date.now() - 60_000).toISOString();
    const stored = await webhook();
    const { result: disabled } = await updateWebhook(db, owner, stored.id, { enabled: false }, UNRECORDED_KEY);
    const whileDisabled = new Date().toISOString();
    // Assess
    expect(enabledAt(stored, before)).toBe(false);
    expect(enabledAt(disabled, stored.createdAt)).toBe(true);
    expect(enabledAt(disabled, whileDisabled)).toBe(false);
    expect(await fanOut(db, owner, eventAt(whileDisabled))).toEqual([]);
  });
});

describe('an attempt', () => {
  it('delivered ends the job; a failure is retried on the schedule, then given up', async () => {
    // Prepare
    const hook = await webhook();
    const clock = { now: new Date() };
    const job = { owner, webhookId: hook.id, event: eventAt(clock.now.toISOString()), attempt: 1 };
    receiver.respondWith((response) => response.writeHead(500).end());
    // Act
    const first = await attemptDelivery(depsAt(clock), job);
    const second = await attemptDelivery(depsAt(clock), { ...job, attempt: 2 });
    const last = await attemptDelivery(depsAt(clock), { ...job, attempt: 3 });
    receiver.respondWith((response) => response.writeHead(200).end());
    const delivered = await attemptDelivery(depsAt(clock), { ...job, attempt: 4 });
    // Assess: 1 s then 2 s, each ±10 %; after the schedule's last delay, no more.
    expect(first.outcome).toBe('retry');
    const delay = (outcome: typeof first) =>
      outcome.outcome === 'retry' ? outcome.retryAt.getTime() - clock.now.getTime() : Number.NaN;
    expect(delay(first)).toBeGreaterThanOrEqual(900);
    expect(delay(first)).toBeLessThanOrEqual(1_100);
    expect(delay(second)).toBeGreaterThanOrEqual(1_800);
    expect(delay(second)).toBeLessThanOrEqual(2_200);
    expect(last).toEqual({ outcome: 'given-up' });
    expect(delivered).toEqual({ outcome: 'delivered' });
    const { deliveries } = await listDeliveries(db, owner, hook.id, { perPage: 10 });
    expect(deliveries.map((d) => [d.attempt, d.statusCode, d.succeeded])).toEqual([
      [4, 200, true],
      [3, 500, false],
      [2, 500, false],
      [1, 500, false],
    ]);
  });

  it('for an event created while the webhook was enabled goes on after it is disabled', async () => {
    // Prepare: the event was due before its owner disabled the webhook.
    const hook = await webhook();
    const event = eventAt(new Date().toISOString());
    await updateWebhook(db, owner, hook.id, { enabled: false }, UNRECORDED_KEY);
    // Act
    const outcome = await attemptDelivery(depsAt({ now: new Date() }), {
      owner,
      webhookId: hook.id,
      event,
      attempt: 2,
    });
    // Assess
    expect(outcome).toEqual({ outcome: 'delivered' });
    expect(receiver.requests).toHaveLength(1);
  });

  it('for a webhook deleted meanwhile is dropped, and nothing is sent', async () => {
    // Act
    const outcome = await attemptDelivery(depsAt({ now: new Date() }), {
      owner,
      webhookId: 999_999,
      event: eventAt(new Date().toISOString()),
      attempt: 2,
    });
    // Assess
    expect(outcome).toEqual({ outcome: 'dropped', reason: 'webhook-gone' });
    expect(receiver.connections).toBe(0);
  });
});

describe('an endpoint failing for 5 days in a row', () => {
  it('is disabled, with the reason on the resource and a webhook.disabled event; a success in between resets the run', async () => {
    // Prepare
    const hook = await webhook();
    const start = new Date();
    const clock = { now: start };
    const deps = depsAt(clock);
    const attempt = (at: number) => {
      clock.now = new Date(start.getTime() + at);
      return attemptDelivery(deps, { owner, webhookId: hook.id, event: eventAt(start.toISOString()), attempt: 1 });
    };
    receiver.respondWith((response) => response.writeHead(503).end());
    // Act: failures from day 0; a success on day 3 ends that run; failures again from day 4 to day 9.
    await attempt(0);
    await attempt(2 * DAY);
    receiver.respondWith((response) => response.writeHead(200).end());
    await attempt(3 * DAY);
    receiver.respondWith((response) => response.writeHead(503).end());
    await attempt(4 * DAY);
    const beforeFiveDays = await showWebhook(db, owner, hook.id);
    await attempt(9 * DAY - 1);
    const stillEnabled = await showWebhook(db, owner, hook.id);
    await attempt(9 * DAY);
    const disabled = await showWebhook(db, owner, hook.id);
    // Assess
    expect(beforeFiveDays.enabled).toBe(true);
    expect(beforeFiveDays.failingSince).toBe(new Date(start.getTime() + 4 * DAY).toISOString());
    expect(stillEnabled.enabled).toBe(true);
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'failing' });
    const { events } = await listEvents(db, owner, {
      after: { epoch: undefined, id: 0, since: 0 },
      perPage: 100,
      types: [],
    });
    expect(events.map((event) => event.type)).toEqual(['webhook.created', 'webhook.disabled']);
  });
});
