/**
 * Faults of the service the fuzzer found, reported and not fixed yet. A case that fails by one of them, and only
 * by it, is counted apart (the report's `known`), not as a failure, so that a run still fails on anything new.
 * Each entry says what is wrong and how its failures read; delete it once the service is fixed (the report
 * shows how many cases each one explained: none for a while means it is fixed).
 */
import type { Case } from '#test/support/fuzz/cases.ts';

export type KnownBug = {
  /** What the service does, against what the document says. */
  what: string;
  /** Whether this failure of this case is that fault. */
  explains: (c: Case, failure: string) => boolean;
};

const isWebhookWrite = (c: Case) =>
  c.op.collection === 'webhooks' && (c.op.action === 'store' || c.op.action === 'update');

/** The URL a webhook write sends, as the service stores it (its href), or ''. */
const storedUrl = (c: Case) => {
  const url = typeof c.body === 'object' ? c.body.url : undefined;
  return typeof url === 'string' && URL.canParse(url.trim()) ? new URL(url.trim()).href : '';
};

/** Characters as JSON Schema counts them: code points. */
const codePoints = (text: string) => [...text].length;

export const KNOWN_BUGS: readonly KnownBug[] = [
  {
    what:
      "GET /events?type= counts the filter's length in UTF-16 units (valibot maxLength): 64 emoji (64 characters, " +
      "as the document's maxLength 64 counts them) answer 422.",
    explains: (c, failure) => {
      const type = c.query.type?.trim() ?? '';
      return (
        c.op.action === 'events' &&
        type.length > 64 &&
        codePoints(type) <= 64 &&
        /answered 422, expected 200/.test(failure)
      );
    },
  },
  {
    what:
      'A webhook write whose URL is longer than about 1,000 bytes (as stored) answers 500: the URL is the ' +
      "webhook's name, and its name sort key (lsi1sk, WEBHOOK#<url>#<id>) passes DynamoDB's 1,024-byte limit for " +
      "a local secondary index's sort key (ValidationException 'Size limit exceeded'); the document allows 2,048 " +
      'characters.',
    explains: (c, failure) =>
      isWebhookWrite(c) && Buffer.byteLength(storedUrl(c)) > 900 && failure.includes('answered 500'),
  },
  {
    what:
      'A webhook URL within 2,048 characters as sent but longer once percent-encoded (its href: a Unicode path) ' +
      'is refused, "must not be longer than 2048 characters": the document\'s maxLength is of the URL sent.',
    explains: (c, failure) =>
      isWebhookWrite(c) &&
      storedUrl(c).length > 2_048 &&
      /answered 422, expected 20[01]/.test(failure) &&
      failure.includes('longer than 2048'),
  },
  {
    what:
      'A webhook description holding a control character (a new line, a tab) is refused (422, "must not contain ' +
      'control characters"), while the document allows any string of up to 255 characters there (no pattern).',
    explains: (c, failure) =>
      isWebhookWrite(c) &&
      typeof c.body === 'object' &&
      /\p{Cc}/u.test(String(c.body.description ?? '')) &&
      failure.includes('"The description field must not contain control characters."'),
  },
  {
    what:
      'A webhook write with more than 32 event patterns (repeated ones) is taken: the service drops duplicates ' +
      'before it counts, while the document says maxItems 32 (the list as sent).',
    explains: (c, failure) =>
      isWebhookWrite(c) && /^events of \d+ items$/.test(c.note) && /answered 20[01], expected 422/.test(failure),
  },
  {
    what:
      "A webhook URL without '//' after its scheme (`https:/hooks.example.com/hook`) is taken (the URL parser " +
      "mends it), while the document's pattern `^[Hh][Tt][Tt][Pp][Ss]?://` refuses it.",
    explains: (c, failure) =>
      isWebhookWrite(c) && c.note.startsWith('url https:/h') && /answered 20[01], expected 422/.test(failure),
  },
  {
    what:
      'POST /webhooks/{id}/rotate-secret answers 422 to a malformed Idempotency-Key, a status the document does ' +
      'not list for rotateSecretWebhook (it lists the Idempotency-Key parameter).',
    explains: (c, failure) =>
      c.op.action === 'rotate-secret' &&
      c.note.startsWith('Idempotency-Key') &&
      failure.includes('answered 422, which docs/openapi.json does not allow'),
  },
  {
    what:
      'A webhook stored with `enabled: false` shows `disabled_reason: null`; the document says null only while ' +
      'enabled, `owner` when its owner disabled it (as an update to false shows).',
    explains: (c, failure) =>
      c.op.collection === 'webhooks' &&
      c.op.action === 'store' &&
      failure.endsWith('the answer does not apply the body: disabled_reason is null, not "owner"'),
  },
];

/** The known fault this failure of this case is, if any. */
export const knownBugOf = (c: Case, failure: string) => KNOWN_BUGS.find((bug) => bug.explains(c, failure));
