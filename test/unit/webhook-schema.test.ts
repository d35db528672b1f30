/**
 * The published schema of what a webhook is sent (`docs/events/webhook.v1.schema.json`): the committed file is
 * what the code generates, it takes what the feed lists and the test event, and refuses what the bus's
 * envelope adds. Every body the webhook suites' receivers get is checked against it too (`test/support`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { webhookBodySchema } from '#lib/openapi/event-schema.ts';
import { eventListExample } from '#lib/openapi/examples.ts';
import { EVENT_SCHEMA_FILE, WEBHOOK_SCHEMA_FILE } from '#lib/openapi/files.ts';
import { webhookExample } from '#lib/webhooks/api/schema.ts';
import { webhookBodyProblem } from '#test/support/webhook-schema.ts';

const body = (value: unknown) => JSON.stringify(value);

describe('the webhook body schema', () => {
  it('is committed as the code generates it (`npm run openapi`), beside the bus’s, and linked from it', () => {
    // Act
    const committed = JSON.parse(readFileSync(WEBHOOK_SCHEMA_FILE, 'utf8'));
    // Assess
    expect(committed).toEqual(JSON.parse(JSON.stringify(webhookBodySchema())));
    expect(committed.$id).toBe('urn:domains-spaces:webhook:v1');
    expect(JSON.parse(readFileSync(EVENT_SCHEMA_FILE, 'utf8')).description).toContain('webhook.v1.schema.json');
  });

  it('describes every event as the feed lists it, with no owner or schema_version', () => {
    // Act / Assess
    expect(eventListExample.data.length).toBeGreaterThan(0);
    for (const event of eventListExample.data) expect(webhookBodyProblem(body(event)), event.type).toBeNull();
  });

  it('describes the test event', () => {
    // Act
    const problem = webhookBodyProblem(
      body({
        id: `test_${'a'.repeat(32)}`,
        type: 'webhook.test',
        created_at: '2025-01-15T09:30:00.000Z',
        data: webhookExample,
      }),
    );
    // Assess
    expect(problem).toBeNull();
  });

  it('refuses the bus’s envelope fields, an event whose data is another kind’s, and what is not JSON', () => {
    // Prepare
    const [event] = eventListExample.data;
    // Act / Assess
    expect(webhookBodyProblem(body({ schema_version: 1, owner: 'acme', ...event }))).not.toBeNull();
    expect(webhookBodyProblem(body({ ...event, type: 'webhook.created' }))).not.toBeNull();
    expect(webhookBodyProblem('{"id":')).toBe('not JSON');
  });
});
