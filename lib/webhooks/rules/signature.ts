/**
 * Signing webhook deliveries as the Standard Webhooks specification says (standardwebhooks.com), so a receiver
 * verifies them with any of its libraries (the `standardwebhooks` npm package among them). Pure: no I/O.
 *
 * - A secret is `whsec_` + the base64 of random bytes; the HMAC key is those bytes, not the text.
 * - The signed content is `<webhook-id>.<webhook-timestamp>.<body>`, the body byte for byte as sent.
 * - `webhook-signature` is `v1,<base64 HMAC-SHA256>`; while a secret is rotated both sign, space-separated,
 *   and a receiver holding either one accepts the delivery.
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';

/** The specification asks for 24 to 64 random bytes; 32 is HMAC-SHA256's own output size. */
export const SECRET_BYTES = 32;
const SECRET_MIN_BYTES = 24;
const SECRET_MAX_BYTES = 64;

/** What a delivery names itself to the receiver (its logs, its firewall rules). */
export const USER_AGENT = 'domains-spaces-webhooks/1.0';

/**
 * A message id is signed as the text before the first dot: one without dots, spaces or commas cannot be
 * confused with the timestamp that follows it or with the header's separators.
 */
const MESSAGE_ID = /^[A-Za-z0-9_-]{1,256}$/;
/** Standard base64 (the `standardwebhooks` package decodes this alphabet only), padding required. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export class SigningSecretError extends Error {
  override name = 'SigningSecretError';
}

/** A new secret: `whsec_` + base64 of 32 random bytes. Shown to its owner once; stored as it is. */
export const newSigningSecret = (): string => `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString('base64')}`;

/** The HMAC key a secret stands for. A malformed secret is a bug or a damaged item: it throws, never signs. */
export function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  const key = BASE64.test(encoded) ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (key.length < SECRET_MIN_BYTES || key.length > SECRET_MAX_BYTES) {
    throw new SigningSecretError(
      `A signing secret is ${SECRET_PREFIX} and the base64 of ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} bytes`,
    );
  }
  return key;
}

/** A stable id for the message that carries one event to one endpoint: the same on every retry. */
export const messageIdOf = (webhookId: string | number, eventId: string): string =>
  checkedMessageId(`msg_${webhookId}_${eventId}`);

function checkedMessageId(msgId: string): string {
  if (!MESSAGE_ID.test(msgId)) throw new RangeError(`A message id is 1 to 256 of A-Z a-z 0-9 _ -, got "${msgId}"`);
  return msgId;
}

function checkedTimestamp(timestampSeconds: number): number {
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`A webhook timestamp is whole seconds since the epoch, got ${timestampSeconds}`);
  }
  return timestampSeconds;
}

/** One secret's signature, `v1,<base64>`, of the body exactly as it will be sent (UTF-8). */
function signatureWith(secret: string, msgId: string, timestampSeconds: number, body: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${msgId}.${timestampSeconds}.`).update(body, 'utf8');
  return `v1,${mac.digest('base64')}`;
}

/**
 * The `webhook-signature` value: one signature per secret, space-separated, in the order given (the current
 * secret, then the one being rotated out while it is still valid).
 */
export function signatureHeader(
  secrets: readonly string[],
  msgId: string,
  timestampSeconds: number,
  body: string,
): string {
  if (secrets.length === 0) throw new SigningSecretError('A delivery is signed with at least one secret');
  checkedMessageId(msgId);
  checkedTimestamp(timestampSeconds);
  return secrets.map((secret) => signatureWith(secret, msgId, timestampSeconds, body)).join(' ');
}

export type WebhookHeaders = {
  'content-type': 'application/json';
  'user-agent': string;
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
};

/** Every header a delivery carries besides those HTTP itself sets (`host`, `content-length`). */
export function webhookHeaders(
  secrets: readonly string[],
  msgId: string,
  timestampSeconds: number,
  body: string,
): WebhookHeaders {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': signatureHeader(secrets, msgId, timestampSeconds, body),
  };
}
