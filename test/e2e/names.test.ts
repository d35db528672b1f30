/**
 * Names that cannot pass for other names (issue 32), over HTTP: the characters names and descriptions refuse,
 * domain names IDNA would have changed silently, punycode held to the rules of Unicode, how a mixed-script
 * name is shown, the stage's own host names, webhook URL hosts; and items stored before these rules, which stay
 * readable, listable, changeable and deletable. The test gateway's edge host name is `edge.test`.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Gateway } from '#infra/local/gateway.ts';
import { storeDomain } from '#lib/domains/data/domains.ts';
import { storeSpace } from '#lib/spaces/data/spaces.ts';
import { storeWebhook } from '#lib/webhooks/data/webhooks.ts';
import type { WebhookConfig } from '#lib/webhooks/settings.ts';
import { db } from '#test/support/database.ts';
import { type DnsTestServer, startDnsServer } from '#test/support/dns-server.ts';
import { configWithDns, storeOldShapeDomain } from '#test/support/domains.ts';
import { newClient as newOwnerClient, startTestGateway } from '#test/support/http.ts';
import { UNRECORDED_KEY } from '#test/support/keys.ts';
import { checked, invalid, newClient } from './helpers.ts';

const INVISIBLE = (field: string) =>
  `The ${field} field must not contain invisible, bidirectional control, private-use or blank-looking characters.`;
const INVALID_NAME = 'The name field must be a valid domain name.';
const reserved = (own: string) =>
  `The name field must not be ${own} or a name under it: that is this service's own host.`;

const PUBLIC_ADDRESS = '93.184.215.14';

let gateway: Gateway;
let dns: DnsTestServer;

beforeAll(async () => {
  dns = await startDnsServer();
  // The AWS rules for webhook URLs (https, no loopback): as the stack runs them by default once deployed.
  const config: WebhookConfig = { ...configWithDns(dns), webhookLocalLoopback: false };
  gateway = await startTestGateway({ config });
});
afterAll(async () => {
  await gateway.close();
  await dns.close();
});

/** A host the test DNS server resolves to a public address. */
function publicHost(): string {
  const host = `hooks-${randomUUID().slice(0, 8)}.example.com`;
  dns.setAddresses(host, [PUBLIC_ADDRESS]);
  return host;
}

describe('space names', () => {
  it('refuses "Marketing" + U+034F beside "Marketing": they would look alike (422 on name)', async () => {
    // Prepare
    const api = await newClient(gateway);
    expect((await api.post('/api/v1/spaces', { name: 'Marketing' })).status).toBe(201);
    // Act
    const reply = await api.post('/api/v1/spaces', { name: 'Marketing\u034F' });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('name', INVISIBLE('name')));
  });

  it.each([
    ['U+FE0F alone', '\uFE0F'],
    ['U+17B5', 'Team\u17B5'],
    ['U+180B', 'Team\u180B'],
    ['U+FE00', 'Team\uFE00'],
    ['private use U+E000', 'Team\uE000'],
    ['private use U+F0000', 'Team\u{F0000}'],
    ['the Braille blank U+2800', '\u2800'],
    ['a no-break space', 'Big\u00A0Team'],
  ])('refuses a name with %s, as JSON and as a form', async (_, name) => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const json = await api.request('POST', '/api/v1/spaces', { json: { name } });
    const form = await api.post('/api/v1/spaces', { name });
    // Assess
    expect(json.body).toEqual(invalid('name', INVISIBLE('name')));
    expect(form.body).toEqual(invalid('name', INVISIBLE('name')));
  });

  it('takes an emoji with its presentation selector, and a keycap', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const heart = await api.post('/api/v1/spaces', { name: 'Team \u2764\uFE0F' });
    const keycap = await api.post('/api/v1/spaces', { name: '1\uFE0F\u20E3 First' });
    // Assess
    expect(heart.status).toBe(201);
    expect(heart.body.data.name).toBe('Team \u2764\uFE0F');
    expect(keycap.status).toBe(201);
  });
});

describe('domain names', () => {
  it.each([
    ['a combining grapheme joiner, which IDNA drops (it stored example.org)', 'exa\u034Fmple.org', INVISIBLE('name')],
    ['a soft hyphen, which IDNA drops', 'exa\u00ADmple.org', INVISIBLE('name')],
    ['a variation selector, which IDNA drops', 'example\uFE0F.org', INVISIBLE('name')],
    ['punycode of a control character', 'xn--a.com', INVALID_NAME],
    ['punycode that does not decode', 'xn--zz.com', INVALID_NAME],
    ['punycode of an upper-case letter', 'xn--bcher-2pa.de', INVALID_NAME],
    ['a reserved label (hyphens in its third and fourth places)', 'ab--cd.com', INVALID_NAME],
  ])('refuses %s (422 on name)', async (_, name, message) => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await api.post('/api/v1/domains', { name });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('name', message));
    expect((await api.get('/api/v1/domains')).body.meta.total).toBe(0);
  });

  it('stores a mixed-script name, shown in punycode as a browser shows it, with the reason', async () => {
    // Prepare: `exаmple.com` with a Cyrillic а (U+0430).
    const api = await newClient(gateway);
    // Act
    const stored = await api.post('/api/v1/domains', { name: 'ex\u0430mple.com' });
    const shown = await api.get(`/api/v1/domains/${stored.body.data.id}`);
    const found = await api.get('/api/v1/domains', { search: 'ex\u0430m' });
    // Assess
    const expected = { name: 'xn--exmple-4nf.com', unicode_name: 'xn--exmple-4nf.com', idn_warning: 'mixed_scripts' };
    expect(stored.status).toBe(201);
    expect(stored.body.data).toMatchObject(expected);
    expect(shown.body.data).toMatchObject(expected);
    expect(found.body.data.map((domain: { name: string }) => domain.name)).toEqual(['xn--exmple-4nf.com']);
  });

  it('shows a whole-script confusable in punycode, and the same letters in Unicode under their own TLD', async () => {
    // Prepare: `аррӏе` is all Cyrillic letters that look like Latin ones (Chromium's example).
    const api = await newClient(gateway);
    // Act
    const com = await api.post('/api/v1/domains', { name: '\u0430\u0440\u0440\u04CF\u0435.com' });
    const ru = await api.post('/api/v1/domains', { name: '\u0430\u0440\u0440\u04CF\u0435.ru' });
    // Assess
    expect(com.body.data).toMatchObject({ unicode_name: 'xn--80ak6aa92e.com', idn_warning: 'whole_script_confusable' });
    expect(ru.body.data).toMatchObject({ unicode_name: '\u0430\u0440\u0440\u04CF\u0435.ru', idn_warning: null });
  });

  it.each([
    ['the edge host name', 'edge.test', 'edge.test'],
    ['a name under the edge host name', 'shop.edge.test', 'edge.test'],
    ['the local edge host name', 'edge.localhost', 'localhost'],
    ['a CloudFront routing endpoint', 'd111111abcdef8.cloudfront.net', 'cloudfront.net'],
    ['the API host on AWS', 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com', 'amazonaws.com'],
  ])("refuses %s: it is the stage's own (422 on name)", async (_, name, own) => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await api.post('/api/v1/domains', { name: `https://${name.toUpperCase()}/` });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('name', reserved(own)));
  });

  it('refuses to verify a name of the stage stored before the rule, without looking it up', async () => {
    // Prepare: what an older store kept.
    const owner = `owner-${randomUUID()}`;
    const api = checked(await newOwnerClient(gateway, owner));
    const { result } = await storeDomain(db, owner, { name: 'www.edge.test', indexPage: null, notFoundPage: null });
    // Act
    const reply = await api.request('POST', `/api/v1/domains/${result.id}/verify`);
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('name', reserved('edge.test')));
    expect((await api.get(`/api/v1/domains/${result.id}`)).body.data).toMatchObject({ status: 'pending' });
  });
});

describe('webhooks', () => {
  it('refuses a description with a right-to-left override, as names do (422 on description)', async () => {
    // Prepare
    const api = await newClient(gateway);
    // Act
    const reply = await api.post('/api/v1/webhooks', {
      url: `https://${publicHost()}/hook`,
      description: 'Invoice \u202Efdp.exe',
    });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(invalid('description', INVISIBLE('description')));
  });

  it('refuses a soft hyphen in the host, which the URL parser drops (422 on url)', async () => {
    // Prepare
    const api = await newClient(gateway);
    const host = publicHost();
    const [first, rest] = [host.slice(0, 5), host.slice(5)];
    // Act
    const reply = await api.post('/api/v1/webhooks', { url: `https://${first}\u00AD${rest}/hook` });
    // Assess
    expect(reply.status).toBe(422);
    expect(reply.body).toEqual(
      invalid('url', 'The url field must name its host without invisible characters (the URL parser would drop them).'),
    );
  });

  it.each([false, true])(
    'answers http://localhost. as it answers http://localhost (loopback allowed: %s)',
    async (webhookLocalLoopback) => {
      // Prepare: the local stack's rule too, where http:// to loopback is taken (and localhost looked up in DNS).
      const config: WebhookConfig = { ...configWithDns(dns), webhookLocalLoopback };
      const stack = webhookLocalLoopback ? await startTestGateway({ config }) : gateway;
      try {
        const api = await newClient(stack);
        // Act
        const plain = await api.post('/api/v1/webhooks', { url: 'http://localhost:9/hook' });
        const dotted = await api.post('/api/v1/webhooks', { url: 'http://localhost.:9/hook' });
        // Assess
        expect(plain.status).toBe(422);
        expect(dotted.body).toEqual(plain.body);
      } finally {
        if (stack !== gateway) await stack.close();
      }
    },
  );
});

describe('items stored before these rules', () => {
  it('stay readable, listable, changeable and deletable: a space, a webhook and a domain', async () => {
    // Prepare: stored as the code before refused nothing of this (the data layer takes what it is given).
    const owner = `owner-${randomUUID()}`;
    const api = checked(await newOwnerClient(gateway, owner));
    const space = (await storeSpace(db, owner, { name: 'Marketing\u034F', color: 2 })).result;
    const webhook = (
      await storeWebhook(
        db,
        owner,
        {
          name: `https://${publicHost()}/hook`,
          events: ['*'],
          enabled: true,
          description: 'Invoice \u202Efdp.exe',
        },
        UNRECORDED_KEY,
      )
    ).result;
    const domainId = await storeOldShapeDomain(db, owner, 'xn--a.com');
    // Act / Assess: a space.
    expect((await api.get(`/api/v1/spaces/${space.id}`)).body.data.name).toBe('Marketing\u034F');
    expect((await api.get('/api/v1/spaces', { search: 'market' })).body.data).toHaveLength(1);
    const recolored = await api.patch(`/api/v1/spaces/${space.id}`, { color: '5' });
    expect(recolored.status).toBe(200);
    expect(recolored.body.data).toMatchObject({ name: 'Marketing\u034F', color: 5 });
    // A webhook.
    expect((await api.get(`/api/v1/webhooks/${webhook.id}`)).body.data.description).toBe('Invoice \u202Efdp.exe');
    expect((await api.patch(`/api/v1/webhooks/${webhook.id}`, { enabled: 'false' })).status).toBe(200);
    expect((await api.get('/api/v1/webhooks')).body.data).toHaveLength(1);
    // A domain whose punycode does not decode: shown as stored, and says why.
    const shown = await api.get(`/api/v1/domains/${domainId}`);
    expect(shown.body.data).toMatchObject({
      name: 'xn--a.com',
      unicode_name: 'xn--a.com',
      idn_warning: 'invalid_punycode',
    });
    expect((await api.get('/api/v1/domains', { search: 'xn--a' })).body.data).toHaveLength(1);
    // Each deletable.
    expect((await api.delete(`/api/v1/spaces/${space.id}`)).status).toBe(200);
    expect((await api.delete(`/api/v1/webhooks/${webhook.id}`)).status).toBe(200);
    expect((await api.delete(`/api/v1/domains/${domainId}`)).status).toBe(200);
  });
});
