import { createHmac } from 'node:crypto';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  messageIdOf,
  newSigningSecret,
  SigningSecretError,
  signatureHeader,
  signingKey,
  USER_AGENT,
  webhookHeaders,
} from '#lib/webhooks/rules/signature.ts';

/** The time a receiver checks the timestamp against: `standardwebhooks` refuses one 5 minutes away. */
const nowSeconds = () => Math.floor(Date.now() / 1_000);

const EVENT_BODY = JSON.stringify({
  id: '000000000042',
  type: 'domain.verified',
  created_at: '2026-11-25T10:00:00.000Z',
  data: { id: 7, name: 'xn--bcher-kva.de', unicode_name: 'bücher.de', status: 'active' },
});

/** What a receiver does with the `standardwebhooks` package: verify, and get the parsed event back. */
const verifiedBy = (secret: string, body: string | Buffer, headers: Record<string, string>) =>
  new Webhook(secret).verify(body, headers);

describe('signing secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, different every time', () => {
    // Act
    const secrets = Array.from({ length: 200 }, newSigningSecret);
    // Assess
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(signingKey(secret)).toHaveLength(32);
    }
    expect(new Set(secrets).size).toBe(secrets.length);
  });

  it.each([
    ['no prefix', Buffer.alloc(32, 1).toString('base64')],
    ['another prefix', `whsk_${Buffer.alloc(32, 1).toString('base64')}`],
    ['23 bytes (the specification asks for 24 to 64)', `whsec_${Buffer.alloc(23, 1).toString('base64')}`],
    ['65 bytes', `whsec_${Buffer.alloc(65, 1).toString('base64')}`],
    ['base64url', `whsec_${Buffer.alloc(32, 0xff).toString('base64url')}`],
    ['missing padding', `whsec_${Buffer.alloc(32, 1).toString('base64').replace(/=$/, '')}`],
    ['an empty key', 'whsec_'],
  ])('refuse to sign with a malformed secret: %s', (_, secret) => {
    // Act
    const sign = () => signatureHeader([secret], 'msg_1', nowSeconds(), '{}');
    // Assess
    expect(sign).toThrow(SigningSecretError);
  });

  it('take keys of 24 and 64 bytes, the specification’s bounds', () => {
    // Assess
    expect(signingKey(`whsec_${Buffer.alloc(24, 7).toString('base64')}`)).toHaveLength(24);
    expect(signingKey(`whsec_${Buffer.alloc(64, 7).toString('base64')}`)).toHaveLength(64);
  });
});

describe('webhook-signature', () => {
  it('is v1, and the base64 HMAC-SHA256 of "id.timestamp.body" keyed by the secret’s bytes', () => {
    // Prepare
    const secret = newSigningSecret();
    const timestamp = 1_764_064_800;
    // Act
    const header = signatureHeader([secret], 'msg_3_000000000042', timestamp, EVENT_BODY);
    // Assess: by hand, and as the package signs
    const mac = createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
      .update(`msg_3_000000000042.${timestamp}.${EVENT_BODY}`)
      .digest('base64');
    expect(header).toBe(`v1,${mac}`);
    expect(header).toBe(new Webhook(secret).sign('msg_3_000000000042', new Date(timestamp * 1_000), EVENT_BODY));
  });

  it('is verified by standardwebhooks, which gives the event back', () => {
    // Prepare
    const secret = newSigningSecret();
    // Act
    const headers = webhookHeaders([secret], 'msg_3_000000000042', nowSeconds(), EVENT_BODY);
    // Assess
    expect(verifiedBy(secret, EVENT_BODY, headers)).toEqual(JSON.parse(EVENT_BODY));
  });

  it.each([
    ['the body', { body: EVENT_BODY.replace('active', 'pending') }],
    ['a byte of white space in the body', { body: `${EVENT_BODY} ` }],
    ['the timestamp', { 'webhook-timestamp': 1 }],
    ['the message id', { 'webhook-id': 'msg_3_000000000043' }],
    ['the signature', { 'webhook-signature': 'flip' }],
  ] as const)('fails verification when %s is tampered with', (_, tampering) => {
    // Prepare
    const secret = newSigningSecret();
    const timestamp = nowSeconds();
    const headers: Record<string, string> = {
      ...webhookHeaders([secret], 'msg_3_000000000042', timestamp, EVENT_BODY),
    };
    let body = EVENT_BODY;
    if ('body' in tampering) body = tampering.body;
    if ('webhook-timestamp' in tampering)
      headers['webhook-timestamp'] = String(timestamp + tampering['webhook-timestamp']);
    if ('webhook-id' in tampering) headers['webhook-id'] = tampering['webhook-id'];
    if ('webhook-signature' in tampering) {
      // One character of the MAC changed: its first, which carries six bits of it
      const signature = headers['webhook-signature'] ?? '';
      headers['webhook-signature'] = signature.replace(/^v1,(.)/, (_, first) => `v1,${first === 'A' ? 'B' : 'A'}`);
    }
    // Act
    const verify = () => verifiedBy(secret, body, headers);
    // Assess
    expect(verify).toThrow(WebhookVerificationError);
  });

  it('fails verification with another secret', () => {
    // Prepare
    const headers = webhookHeaders([newSigningSecret()], 'msg_1', nowSeconds(), EVENT_BODY);
    // Act
    const verify = () => verifiedBy(newSigningSecret(), EVENT_BODY, headers);
    // Assess
    expect(verify).toThrow(WebhookVerificationError);
  });

  it('signs the body’s UTF-8 bytes, as a receiver reads them off the wire', () => {
    // Prepare: non-ASCII text, whose UTF-16 and UTF-8 forms differ
    const secret = newSigningSecret();
    const body = JSON.stringify({ name: 'bücher.de — 日本語 🎉' });
    const headers = webhookHeaders([secret], 'msg_9', nowSeconds(), body);
    // Act
    const verified = verifiedBy(secret, Buffer.from(body, 'utf8'), headers);
    // Assess
    expect(verified).toEqual(JSON.parse(body));
  });

  it('refuses message ids that would blur the signed content, and timestamps that are not whole seconds', () => {
    // Prepare
    const secret = newSigningSecret();
    // Act / Assess
    expect(() => signatureHeader([secret], 'msg.1', 1, '{}')).toThrow(RangeError);
    expect(() => signatureHeader([secret], 'msg 1', 1, '{}')).toThrow(RangeError);
    expect(() => signatureHeader([secret], '', 1, '{}')).toThrow(RangeError);
    expect(() => signatureHeader([secret], 'msg_1', 1.5, '{}')).toThrow(RangeError);
    expect(() => signatureHeader([secret], 'msg_1', -1, '{}')).toThrow(RangeError);
    expect(() => signatureHeader([], 'msg_1', 1, '{}')).toThrow(SigningSecretError);
  });
});

describe('rotation: two secrets sign', () => {
  it('gives two v1 signatures, space-separated, the new secret’s first', () => {
    // Prepare
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    const timestamp = nowSeconds();
    // Act
    const header = signatureHeader([next, previous], 'msg_1', timestamp, EVENT_BODY);
    // Assess
    expect(header.split(' ')).toEqual([
      signatureHeader([next], 'msg_1', timestamp, EVENT_BODY),
      signatureHeader([previous], 'msg_1', timestamp, EVENT_BODY),
    ]);
    expect(header).toMatch(/^v1,[A-Za-z0-9+/]{43}= v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('is verified by a receiver holding either secret alone, and by no other', () => {
    // Prepare
    const [next, previous] = [newSigningSecret(), newSigningSecret()];
    // Act
    const headers = webhookHeaders([next, previous], 'msg_3_000000000042', nowSeconds(), EVENT_BODY);
    // Assess
    expect(verifiedBy(next, EVENT_BODY, headers)).toEqual(JSON.parse(EVENT_BODY));
    expect(verifiedBy(previous, EVENT_BODY, headers)).toEqual(JSON.parse(EVENT_BODY));
    expect(() => verifiedBy(newSigningSecret(), EVENT_BODY, headers)).toThrow(WebhookVerificationError);
  });
});

describe('the delivery headers', () => {
  it('carry the id, the timestamp, the signature, JSON and our user agent', () => {
    // Prepare
    const secret = newSigningSecret();
    // Act
    const headers = webhookHeaders([secret], 'msg_5_000000000001', 1_764_064_800, EVENT_BODY);
    // Assess
    expect(headers).toEqual({
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': 'msg_5_000000000001',
      'webhook-timestamp': '1764064800',
      'webhook-signature': signatureHeader([secret], 'msg_5_000000000001', 1_764_064_800, EVENT_BODY),
    });
    expect(USER_AGENT).toMatch(/^domains-spaces-webhooks\/\d/);
  });

  it('name one message per event and endpoint, the same on every retry', () => {
    // Assess
    expect(messageIdOf(3, '000000000042')).toBe('msg_3_000000000042');
    expect(messageIdOf(3, '000000000042')).toBe(messageIdOf(3, '000000000042'));
    expect(messageIdOf(4, '000000000042')).not.toBe(messageIdOf(3, '000000000042'));
    expect(() => messageIdOf(3, 'a.b')).toThrow(RangeError);
  });
});
