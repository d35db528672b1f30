/**
 * The change feed's publisher (EventBridge Pipes enrichment): stream records of new events become the bus's
 * events, valid against the committed, versioned schema; anything else in the stream is dropped.
 */
import { readFileSync } from 'node:fs';
import { marshall } from '@aws-sdk/util-dynamodb';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { create } from '#functions/events/publish.ts';
import { eventKey, itemKey } from '#lib/data/keys.ts';
import type { StreamRecord } from '#lib/data/stream.ts';
import { eventBusSchema } from '#lib/openapi/event-schema.ts';
import { EVENT_SCHEMA_FILE } from '#lib/openapi/files.ts';

const schema = JSON.parse(readFileSync(EVENT_SCHEMA_FILE, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true });
(addFormatsModule as unknown as typeof addFormatsModule.default)(ajv, ['date-time']);
ajv.addFormat('uri', (value: string) => URL.canParse(value));
const validate = ajv.compile(schema);

const at = '2025-03-01T12:00:00.000Z';
const domain = {
  id: 4,
  name: 'xn--bcher-kva.de',
  unicode_name: 'bücher.de',
  idn_warning: null,
  status: 'active',
  verification: { type: 'TXT', name: '_ds-challenge.xn--bcher-kva.de', value: 'k3Yp0q9d6Zb1m8Xc2Vt7Ln4Rw5Hs0Ja1' },
  verified_at: at,
  last_checked_at: at,
  index_page: 'https://www.example.org/',
  not_found_page: null,
  created_at: at,
  updated_at: at,
};

const publish = create({ edgeHostname: 'edge.example.net' });

/** The domain as the API shows it, from the record below: its TXT record found, its CNAME not yet. */
const shown = {
  ...domain,
  serving: 'waiting_for_dns',
  serving_error: null,
  records: [
    { ...domain.verification, status: 'found' },
    { type: 'CNAME', name: 'xn--bcher-kva.de', value: 'edge.example.net', status: 'missing' },
  ],
};

/** A stream record as Pipes passes it: DynamoDB's JSON, new image only. */
const record = (eventName: string, item: Record<string, unknown>): StreamRecord => ({
  eventName,
  dynamodb: {
    Keys: marshall({ pk: item.pk, sk: item.sk }),
    NewImage: marshall(item, { removeUndefinedValues: true }) as never,
  },
});

/** A new event item, as the write path stores it: the domain's record after the change. */
const eventItem = {
  ...eventKey('acme', 42),
  kind: 'event',
  eventId: 42,
  type: 'domain.updated',
  createdAt: at,
  resource: {
    id: 4,
    name: 'xn--bcher-kva.de',
    status: 'active',
    verificationToken: 'k3Yp0q9d6Zb1m8Xc2Vt7Ln4Rw5Hs0Ja1',
    verifiedAt: at,
    lastCheckedAt: at,
    check: { txt: 'found' },
    indexPage: 'https://www.example.org/',
    notFoundPage: null,
    createdAt: at,
    updatedAt: at,
    version: 3,
  },
  version: 3,
  ttl: 1_900_000_000,
};

describe('the change feed publisher', () => {
  it('turns a new event item into the bus event: the feed’s event, its owner and the schema version', async () => {
    // Act
    const [event, ...rest] = await publish([record('INSERT', eventItem)]);
    // Assess
    expect(rest).toEqual([]);
    expect(event).toEqual({
      schema_version: 1,
      owner: 'acme',
      id: '000000000042',
      type: 'domain.updated',
      created_at: at,
      data: shown,
    });
    expect(validate(event), ajv.errorsText(validate.errors)).toBe(true);
  });

  it('drops what is not a new event: its removal by TTL, and other items', async () => {
    // Act
    const published = await publish([
      record('REMOVE', eventItem),
      record('MODIFY', eventItem),
      record('INSERT', { ...itemKey('acme', 'space', 1), kind: 'space', id: 1, name: 'A' }),
      { eventName: 'INSERT' },
    ]);
    // Assess
    expect(published).toEqual([]);
  });

  it('is described by the committed schema, which is what the code generates (`npm run openapi`)', () => {
    // Act
    const generated = JSON.parse(JSON.stringify(eventBusSchema()));
    // Assess
    expect(schema).toEqual(generated);
    expect(
      validate({ schema_version: 1, owner: 'acme', id: '1', type: 'domain.updated', created_at: at, data: domain }),
    ).toBe(false);
    expect(
      validate({
        schema_version: 1,
        owner: 'acme',
        id: '000000000001',
        type: 'space.updated',
        created_at: at,
        data: domain,
      }),
    ).toBe(false);
  });
});

describe('an event written before events carried records', () => {
  it('is passed on as it was answered (the stream never carries one as new: only the feed upgrades it)', async () => {
    // Prepare
    const older = { ...eventItem, resource: undefined, data: JSON.stringify(domain) };
    // Act
    const [event] = await publish([record('INSERT', older)]);
    // Assess
    expect(event?.data).toEqual(domain);
  });
});
