/**
 * The Domains and Spaces API's types, generated from docs/openapi.json by openapi-typescript.
 * Do not edit: run `npm run openapi` (test/contract/client-types.test.ts fails when this file is stale).
 */

export interface paths {
  '/domains': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List domains
     * @description The owner's domains, one page at a time. `links.next` carries a `cursor`: following it reads only about `per_page` items, however deep the page.
     *
     *     Needs the `domains:read` scope (403 without it).
     */
    get: operations['listDomains'];
    put?: never;
    /**
     * Store a domain
     * @description Stores a new domain for the key's owner. Send the fields as a form or as JSON. The domain is `pending` and does not reserve its name: publish the TXT record of its `verification`, then verify it. The name is refused only when it is active under another owner or when this owner already has it. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `domains:write` scope (403 without it).
     */
    post: operations['storeDomain'];
    delete?: never;
    options?: never;
    /**
     * List domains (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs the `domains:read` scope (403 without it).
     */
    head: operations['listDomainsHead'];
    patch?: never;
    trace?: never;
  };
  '/domains/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a domain
     * @description One of the owner's domains, with its version in `ETag`.
     *
     *     Needs the `domains:read` scope (403 without it).
     */
    get: operations['showDomain'];
    /**
     * Update a domain (PUT)
     * @description A partial update: absent fields are unchanged. PUT and PATCH behave the same. An update that changes nothing (every field it sends already has that value) writes nothing: the same version (`ETag`) and `updated_at`, no event. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `domains:write` scope (403 without it).
     */
    put: operations['putDomain'];
    post?: never;
    /**
     * Delete a domain
     * @description Deletes the domain; its id is never used again. Deleting an active domain frees its name for any owner to verify. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing. (A repeat of a delete that was answered therefore answers 200 again, not 404.)
     *
     *     Needs the `domains:write` scope (403 without it).
     */
    delete: operations['destroyDomain'];
    options?: never;
    /**
     * Show a domain (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs the `domains:read` scope (403 without it).
     */
    head: operations['showDomainHead'];
    /**
     * Update a domain
     * @description A partial update: absent fields are unchanged. PUT and PATCH behave the same. An update that changes nothing (every field it sends already has that value) writes nothing: the same version (`ETag`) and `updated_at`, no event. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `domains:write` scope (403 without it).
     */
    patch: operations['updateDomain'];
    trace?: never;
  };
  '/domains/{id}/verify': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Verify a domain
     * @description Looks up the TXT record given in the domain's `verification` (`_ds-challenge.<name>`). When one of its values is the token and no other owner holds the name active, the domain becomes `active` and holds the name across all owners, atomically: of several owners verifying one name at once, exactly one wins. A record that is missing or holds other values answers 422 on `verification`, saying what was expected and what was found; a name active under another owner answers 422 on `name`. Either way `last_checked_at` records the check. Verifying an active domain checks again and answers 200 while the record is there; an active domain stays active whatever the record says. A DNS lookup that times out or fails (SERVFAIL) answers 503 with `Retry-After`. No body. With an `Idempotency-Key`, a repeat of a verification that succeeded answers its first answer again, with `Idempotent-Replayed: true`; a check that failed is not recorded, so a repeat checks again.
     *
     *     Needs the `domains:write` scope (403 without it).
     */
    post: operations['verifyDomain'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/spaces': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List spaces
     * @description The owner's spaces, one page at a time. `links.next` carries a `cursor`: following it reads only about `per_page` items, however deep the page.
     *
     *     Needs the `spaces:read` scope (403 without it).
     */
    get: operations['listSpaces'];
    put?: never;
    /**
     * Store a space
     * @description Stores a new space for the key's owner. Send the fields as a form or as JSON. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `spaces:write` scope (403 without it).
     */
    post: operations['storeSpace'];
    delete?: never;
    options?: never;
    /**
     * List spaces (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs the `spaces:read` scope (403 without it).
     */
    head: operations['listSpacesHead'];
    patch?: never;
    trace?: never;
  };
  '/spaces/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a space
     * @description One of the owner's spaces, with its version in `ETag`.
     *
     *     Needs the `spaces:read` scope (403 without it).
     */
    get: operations['showSpace'];
    /**
     * Update a space (PUT)
     * @description A partial update: absent fields are unchanged. PUT and PATCH behave the same. An update that changes nothing (every field it sends already has that value) writes nothing: the same version (`ETag`) and `updated_at`, no event. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `spaces:write` scope (403 without it).
     */
    put: operations['putSpace'];
    post?: never;
    /**
     * Delete a space
     * @description Deletes the space; its id is never used again. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing. (A repeat of a delete that was answered therefore answers 200 again, not 404.)
     *
     *     Needs the `spaces:write` scope (403 without it).
     */
    delete: operations['destroySpace'];
    options?: never;
    /**
     * Show a space (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs the `spaces:read` scope (403 without it).
     */
    head: operations['showSpaceHead'];
    /**
     * Update a space
     * @description A partial update: absent fields are unchanged. PUT and PATCH behave the same. An update that changes nothing (every field it sends already has that value) writes nothing: the same version (`ETag`) and `updated_at`, no event. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `spaces:write` scope (403 without it).
     */
    patch: operations['updateSpace'];
    trace?: never;
  };
  '/webhooks': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List webhooks
     * @description The owner's webhooks, one page at a time. `links.next` carries a `cursor`: following it reads only about `per_page` items, however deep the page.
     *
     *     Needs the `webhooks:read` scope (403 without it).
     */
    get: operations['listWebhooks'];
    put?: never;
    /**
     * Store a webhook
     * @description Stores a new webhook for the key's owner. Send the fields as a form or as JSON. The answer holds the signing `secret`, shown only then (and by `rotate-secret`): keep it to verify deliveries. The URL is checked when stored and at every delivery: a host that is or resolves to a private, loopback, link-local, multicast or metadata address is refused (422). With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `webhooks:write` scope (403 without it).
     */
    post: operations['storeWebhook'];
    delete?: never;
    options?: never;
    /**
     * List webhooks (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs the `webhooks:read` scope (403 without it).
     */
    head: operations['listWebhooksHead'];
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show a webhook
     * @description One of the owner's webhooks, with its version in `ETag`.
     *
     *     Needs the `webhooks:read` scope (403 without it).
     */
    get: operations['showWebhook'];
    /**
     * Update a webhook (PUT)
     * @description A partial update: absent fields are unchanged. PUT and PATCH behave the same. An update that changes nothing (every field it sends already has that value) writes nothing: the same version (`ETag`) and `updated_at`, no event. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `webhooks:write` scope (403 without it).
     */
    put: operations['putWebhook'];
    post?: never;
    /**
     * Delete a webhook
     * @description Deletes the webhook; its id is never used again; attempts still pending for it are dropped. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing. (A repeat of a delete that was answered therefore answers 200 again, not 404.)
     *
     *     Needs the `webhooks:write` scope (403 without it).
     */
    delete: operations['destroyWebhook'];
    options?: never;
    /**
     * Show a webhook (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs the `webhooks:read` scope (403 without it).
     */
    head: operations['showWebhookHead'];
    /**
     * Update a webhook
     * @description A partial update: absent fields are unchanged. PUT and PATCH behave the same. An update that changes nothing (every field it sends already has that value) writes nothing: the same version (`ETag`) and `updated_at`, no event. With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `webhooks:write` scope (403 without it).
     */
    patch: operations['updateWebhook'];
    trace?: never;
  };
  '/webhooks/{id}/rotate-secret': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Rotate a webhook's signing secret
     * @description Gives the webhook a new signing secret, answered in `data.secret` (shown only here). For 24 hours deliveries carry two signatures in `webhook-signature`, one with each secret, so a receiver can switch over without missing one; then only the new secret signs. A secret rotated out earlier stops signing now. The change is a `webhook.updated` event (without either secret). With `If-Match`, only if the resource still has one of the versions it names (its `ETag`); with `If-None-Match`, only if it has none of them (`*`: never, since the resource exists): otherwise 412 and nothing changes. With an `Idempotency-Key`, a repeat of the request (same method, path and body) within 24 hours answers the first answer again, with `Idempotent-Replayed: true`, and writes nothing.
     *
     *     Needs the `webhooks:write` scope (403 without it).
     */
    post: operations['rotateSecretWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/test': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * Send a test event to a webhook
     * @description Sends a `webhook.test` event to the URL now, once (not retried), signed like every delivery, and answers the attempt as the deliveries list shows it: whether it succeeded, the status or the error, the duration. Sent whether or not the webhook is enabled or listens to `webhook.test`; it is not in the change feed. The destination is checked again first (an address that is not public fails the attempt with `error: "destination"`). No body.
     *
     *     Needs the `webhooks:write` scope (403 without it).
     */
    post: operations['testWebhook'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/webhooks/{id}/deliveries': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List a webhook's delivery attempts
     * @description Every attempt to deliver an event to the webhook (tests included), newest first, kept 30 days: the event, the attempt (from 1; retries of one event share its `message_id`), the status code or the error, the duration and the start of the answer. Follow `links.next` for older attempts.
     *
     *     Needs the `webhooks:read` scope (403 without it).
     */
    get: operations['listWebhookDeliveries'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /**
     * List a webhook's delivery attempts (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs the `webhooks:read` scope (403 without it).
     */
    head: operations['listWebhookDeliveriesHead'];
    patch?: never;
    trace?: never;
  };
  '/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * List events (the change feed)
     * @description Every change of the owner's spaces, domains and webhooks (store, update, delete, verify, a secret's rotation, a webhook disabled for failing), oldest first: one event per change, with ids that go up by one, in the feed by the time the change is answered, kept 30 days. Poll by following `links.next` (its cursor also carries the feed's epoch): no event is ever skipped or repeated, even while other requests are writing; a page may end early while a change is still becoming visible, and the next poll continues there. A cursor whose next events may have expired, or from before a restore of the database, answers 410: re-list the resources, then read the feed again from the start. A key sees the events of the collections its scopes let it read.
     *
     *     Needs any `:read` scope (403 without one).
     */
    get: operations['listEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /**
     * List events (the change feed) (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Needs any `:read` scope (403 without one).
     */
    head: operations['listEventsHead'];
    patch?: never;
    trace?: never;
  };
  '/account': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Show the account (plan, usage, this key)
     * @description The owner's plan and, for each kind, how many items it holds (`used`: the very counts a store is checked against) and the plan's `limit`; and this key's scopes, expiry and rate limit. A store beyond a limit is refused (422, naming the plan). After a move to a smaller plan `used` may exceed `limit`: the items stay, new ones are refused until the owner is below it. `ETag` changes with any of it; `If-None-Match` answers 304.
     *
     *     Any valid key, whatever its scopes (`*`).
     */
    get: operations['showAccount'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /**
     * Show the account (plan, usage, this key) (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     Any valid key, whatever its scopes (`*`).
     */
    head: operations['showAccountHead'];
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This document
     * @description The OpenAPI document, as `docs/openapi.json` holds it, with the local server named by the address that answers. No key needed.
     */
    get: operations['showOpenApiDocument'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    /**
     * This document (HEAD)
     * @description `GET` without the body: the same parameters, status and headers as `GET` would answer.
     *
     *     The OpenAPI document, as `docs/openapi.json` holds it, with the local server named by the address that answers. No key needed.
     */
    head: operations['showOpenApiDocumentHead'];
    patch?: never;
    trace?: never;
  };
}
export interface webhooks {
  change: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * A change of the owner's, POSTed to a webhook
     * @description Each event of the change feed whose type the webhook subscribes to (`events`) and that was created while it was enabled, exactly as `GET /events` lists it, signed. Sent within about a second of the change; not necessarily in order (order by `id`), at least once (deduplicate by `webhook-id`). Only the owner’s own events; the destination is checked again at every attempt (a host that now resolves to a private address fails it).
     */
    post: operations['receiveChange'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  test: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /**
     * The test event, POSTed by `POST /webhooks/{id}/test`
     * @description Sent once, at once, whether or not the webhook is enabled or subscribes to it; not retried and not in the change feed. Signed like every delivery.
     */
    post: operations['receiveTest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export interface components {
  schemas: {
    Space: {
      /** @description Allocated per owner, increasing, never reused. */
      id: number;
      /** @description Unique per owner, ignoring case. */
      name: string;
      /** @description Color code. */
      color: number;
      /**
       * Format: date-time
       * @description When the space was stored, ISO 8601 in UTC.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the space last changed, ISO 8601 in UTC.
       */
      updated_at: string;
    };
    Domain: {
      /** @description Allocated per owner, increasing, never reused. */
      id: number;
      /** @description Lowercase ASCII hostname (Unicode names in punycode); active under at most one owner at a time. */
      name: string;
      /** @description The name as a browser shows it: in Unicode (`bücher.de` for `xn--bcher-kva.de`), but a label that could pass for another name stays in punycode, as browsers show it (`idn_warning` says why); for ASCII names, the name. */
      unicode_name: string;
      /** @description Why `unicode_name` shows a label in punycode rather than in Unicode, or null when it shows every label in Unicode (and for ASCII names). Decided as Chromium decides what its address bar shows, on UTS #39: `mixed_scripts`: letters of scripts that may not mix (Latin with Cyrillic, as in `exаmple.com` with a Cyrillic `а`; only Chinese, Japanese and Korean mix with ASCII Latin); `whole_script_confusable`: letters of one script that all look like Latin ones (`аррӏе.com`, Cyrillic), under a TLD not of that script; `mixed_numbers`: digits of two numbering systems; `restricted_characters`: a character that is no letter, mark or digit of a script in common modern use (an emoji, a symbol, a historic script), or a combining mark repeated; `invalid_punycode`: a punycode label that does not decode to a name IDNA takes (stored before such labels were refused). The name is still stored and served as it is: only how it is shown differs. */
      idn_warning:
        | ('invalid_punycode' | 'restricted_characters' | 'mixed_scripts' | 'mixed_numbers' | 'whole_script_confusable')
        | null;
      /**
       * @description `pending` until verified: a pending domain does not reserve its name, other owners may store it too. `active` once `POST /domains/{id}/verify` found the TXT record: the name is then held across all owners until the domain is deleted, or until its TXT record has been missing for 7 days (checked hourly), when it returns to `pending`. Only active domains are served.
       * @enum {string}
       */
      status: 'pending' | 'active';
      /**
       * @description Whether the edge serves the domain to its visitors (docs/deployment.md, "What serving says"). `pending` while the domain is pending. Once active: `waiting_for_dns` until its name points at the edge (the CNAME record in `records`, or at a zone apex an ALIAS): no CloudFront tenant exists yet; `provisioning` while CloudFront issues its certificate and deploys its tenant (minutes; locally at once); `active` when visitors get HTTPS and its redirects; `failed` when it cannot be served until you act, with the reason in `serving_error`. A domain waiting for its DNS or certificate is checked again every 5 minutes for 72 hours after it became active, then hourly; `POST /domains/{id}/verify` checks at once.
       * @enum {string}
       */
      serving: 'pending' | 'waiting_for_dns' | 'provisioning' | 'active' | 'failed';
      /** @description Why the edge cannot serve the domain, when `serving` is `failed`; null otherwise. */
      serving_error: {
        /**
         * @description `certificate_failed`: CloudFront could not issue the certificate (the name stopped pointing at the edge, or a CAA record forbids Amazon); `name_in_use`: another CloudFront distribution or tenant holds the name; `pages_too_large`: the pages do not fit the edge (domains stored before pages were measured); `capacity`: the service is at capacity for new domains (a quota is full) and retries by itself (hourly), nothing for the owner to do.
         * @enum {string}
         */
        code: 'certificate_failed' | 'name_in_use' | 'pages_too_large' | 'capacity';
        /** @description What to do about it, safe to show to a user. */
        message: string;
      } | null;
      /** @description Every DNS record to create. The TXT record at `_ds-challenge.<name>` proves the domain (keep it: an active domain whose TXT record stays missing for 7 days returns to `pending`); the CNAME routes its visitors to the edge (at a zone apex, an alias, ALIAS or ANAME record to the routing endpoint: the record then shows as `ALIAS` with that value, found when every address the name answers is one of the edge's). Domains stored before verification existed have only the CNAME. */
      records: {
        /**
         * @description `ALIAS`: the name answered addresses rather than a CNAME (a zone apex, where a CNAME is not allowed): a Route 53 alias record, or your DNS provider's ALIAS, ANAME or flattened CNAME, to the value (the stage's routing endpoint).
         * @enum {string}
         */
        type: 'TXT' | 'CNAME' | 'ALIAS';
        /** @description The name to create the record at. */
        name: string;
        /** @description The value the record must hold. */
        value: string;
        /**
         * @description What the last check found (verification, then hourly while active): `found` as required, `missing` nothing at the name (or not checked yet), `wrong` another value.
         * @enum {string}
         */
        status: 'found' | 'missing' | 'wrong';
      }[];
      /** @description The DNS record that proves the domain is yours; null for domains stored before verification existed (they are active). */
      verification: {
        /** @constant */
        type: 'TXT';
        /** @description Where to publish the record: `_ds-challenge.` followed by the domain's name. */
        name: string;
        /** @description The token the record must hold; random, unique per domain. */
        value: string;
      } | null;
      /** @description Null while pending (and for older domains). */
      verified_at: string | null;
      /** @description Null until the first verification that got an answer from DNS. */
      last_checked_at: string | null;
      /** @description Absolute http(s) URL of the index page, as the URL standard writes it (its href: ASCII, the host in punycode, the rest percent-encoded), or null. */
      index_page: string | null;
      /** @description Absolute http(s) URL to redirect to when a page is not found, as the URL standard writes it (its href: ASCII, the host in punycode, the rest percent-encoded), or null. */
      not_found_page: string | null;
      /**
       * Format: date-time
       * @description When the domain was stored, ISO 8601 in UTC.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the domain as shown here last changed, whoever changed it: an update of its pages, a verification or check that recorded what it found (`last_checked_at`, `records`), the edge (`serving`), a return to pending. It moves with the ETag, and with each `domain.updated` or `domain.verified` event, ISO 8601 in UTC.
       */
      updated_at: string;
    };
    Webhook: {
      /** @description Allocated per owner, increasing, never reused. */
      id: number;
      /**
       * Format: uri
       * @description Where deliveries are POSTed, as stored: its WHATWG form (percent-encoded), which may be longer than the 2048 characters sent.
       */
      url: string;
      /** @description The event types delivered: exact types, `<kind>.*` families, or `*` for every event. */
      events: string[];
      /** @description Whether events are delivered. */
      enabled: boolean;
      /** @description A note for you, or null. */
      description: string | null;
      /** @description Why the webhook is disabled: `owner`, you disabled it; `failing`, every delivery failed for 5 days in a row; `key_revoked` or `key_expired`, the API key that last stored, redirected or enabled it (the newest key of its rotation) was revoked or expired, found at its next event (a `webhook.disabled` event says so but for `owner`). Enable it again with a key that may read its events. Null while enabled. */
      disabled_reason: ('owner' | 'failing' | 'key_revoked' | 'key_expired') | null;
      /**
       * Format: date-time
       * @description When the webhook was stored, ISO 8601 in UTC.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the webhook last changed, ISO 8601 in UTC.
       */
      updated_at: string;
    };
    SpaceResponse: {
      data: components['schemas']['Space'];
    };
    DomainResponse: {
      data: components['schemas']['Domain'];
    };
    WebhookResponse: {
      data: components['schemas']['Webhook'];
    };
    SpaceList: {
      data: components['schemas']['Space'][];
      links: components['schemas']['ListLinks'];
      meta: components['schemas']['ListMeta'];
      /** @constant */
      status: 200;
    };
    DomainList: {
      data: components['schemas']['Domain'][];
      links: components['schemas']['ListLinks'];
      meta: components['schemas']['ListMeta'];
      /** @constant */
      status: 200;
    };
    WebhookList: {
      data: components['schemas']['Webhook'][];
      links: components['schemas']['ListLinks'];
      meta: components['schemas']['ListMeta'];
      /** @constant */
      status: 200;
    };
    WebhookWithSecret: {
      /** @description Allocated per owner, increasing, never reused. */
      id: number;
      /**
       * Format: uri
       * @description Where deliveries are POSTed, as stored: its WHATWG form (percent-encoded), which may be longer than the 2048 characters sent.
       */
      url: string;
      /** @description The event types delivered: exact types, `<kind>.*` families, or `*` for every event. */
      events: string[];
      /** @description Whether events are delivered. */
      enabled: boolean;
      /** @description A note for you, or null. */
      description: string | null;
      /** @description Why the webhook is disabled: `owner`, you disabled it; `failing`, every delivery failed for 5 days in a row; `key_revoked` or `key_expired`, the API key that last stored, redirected or enabled it (the newest key of its rotation) was revoked or expired, found at its next event (a `webhook.disabled` event says so but for `owner`). Enable it again with a key that may read its events. Null while enabled. */
      disabled_reason: ('owner' | 'failing' | 'key_revoked' | 'key_expired') | null;
      /**
       * Format: date-time
       * @description When the webhook was stored, ISO 8601 in UTC.
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When the webhook last changed, ISO 8601 in UTC.
       */
      updated_at: string;
      /** @description The signing secret (`whsec_` and the base64 of 32 random bytes), shown only in this answer: keep it to verify deliveries (Standard Webhooks). After a rotation, deliveries carry a signature with each secret for 24 hours. */
      secret: string;
    };
    WebhookWithSecretResponse: {
      data: components['schemas']['WebhookWithSecret'];
    };
    Delivery: {
      /** @description The event delivered, as the feed lists it (a test delivery: `test_…`). */
      event_id: string;
      /**
       * @description Its type.
       * @enum {string}
       */
      event_type:
        | 'domain.created'
        | 'domain.updated'
        | 'domain.verified'
        | 'domain.deleted'
        | 'space.created'
        | 'space.updated'
        | 'space.deleted'
        | 'webhook.created'
        | 'webhook.updated'
        | 'webhook.disabled'
        | 'webhook.deleted'
        | 'account.plan_changed'
        | 'webhook.test';
      /** @description The `webhook-id` header: the same on every attempt of this event. */
      message_id: string;
      /** @description The attempt, from 1. */
      attempt: number;
      /** @description The answer’s status; null when none came (see `error`). */
      status_code: number | null;
      /** @description What went wrong when no answer came: the 10 s deadline passed, DNS, the connection (refused, reset, unreachable), TLS, not HTTP, or a destination refused (a private address, say); null when an answer came. */
      error:
        | ('timeout' | 'dns' | 'refused' | 'reset' | 'unreachable' | 'tls' | 'protocol' | 'network' | 'destination')
        | null;
      /** @description From the start of the attempt (DNS included) to its end. */
      duration_ms: number;
      /** @description A 2xx answer within 10 s. */
      succeeded: boolean;
      /** @description The start of the answer’s body, at most 256 characters. */
      response_excerpt: string;
      /** @description An attempt not made yet, due at `created_at` (no status, error or excerpt yet). The local stack lists the next attempt of each event it has still to deliver; on AWS an attempt waiting for its retry is in SQS, and only attempts made are listed. */
      pending: boolean;
      /**
       * Format: date-time
       * @description When the attempt was made (a pending one: when it is due), ISO 8601 in UTC.
       */
      created_at: string;
    };
    DeliveryResponse: {
      data: components['schemas']['Delivery'];
    };
    DeliveryList: {
      data: components['schemas']['Delivery'][];
      links: {
        /**
         * Format: uri
         * @description The newest attempts.
         */
        first: string;
        /** @description Older attempts; null on the last page. */
        next: string | null;
      };
      meta: {
        /**
         * Format: uri
         * @description The list URL without its query.
         */
        path: string;
        per_page: number;
        /** @description Opaque cursor of the next page; null on the last. */
        next_cursor: string | null;
      };
      /** @constant */
      status: 200;
    };
    WebhookTestEvent: {
      /** @description A new id per test, not a feed event’s. */
      id: string;
      /** @constant */
      type: 'webhook.test';
      /**
       * Format: date-time
       * @description When the test was sent, ISO 8601 in UTC.
       */
      created_at: string;
      data: components['schemas']['Webhook'];
    };
    ListLinks: {
      /**
       * Format: uri
       * @description The first page.
       */
      first: string;
      /**
       * Format: uri
       * @description The last page.
       */
      last: string;
      /** @description The previous page; null on the first. */
      prev: string | null;
      /** @description The next page, with a cursor; null on the last. */
      next: string | null;
    };
    ListMeta: {
      current_page: number;
      /** @description Position of the first item on this page; null when empty. */
      from: number | null;
      last_page: number;
      /**
       * Format: uri
       * @description The list URL without its query.
       */
      path: string;
      /** @enum {integer} */
      per_page: 10 | 25 | 50 | 100;
      /** @description Position of the last item on this page; null when empty. */
      to: number | null;
      /** @description Items matching the search. */
      total: number;
      /** @description Opaque cursor of the next page; null on the last. */
      next_cursor: string | null;
    };
    Deleted: {
      /** @description Allocated per owner, increasing, never reused. */
      id: number;
      /** @enum {string} */
      object: 'domain' | 'space' | 'webhook';
      /** @constant */
      deleted: true;
      /** @constant */
      status: 200;
    };
    SpaceEvent: {
      /** @description Increases by one with every change of the owner, in the order the changes committed (events from before gapless ids may have gaps). */
      id: string;
      /** @enum {string} */
      type: 'space.created' | 'space.updated' | 'space.deleted';
      /**
       * Format: date-time
       * @description When the change committed, ISO 8601 in UTC.
       */
      created_at: string;
      /** @description The space after the change; for a delete, its last state. */
      data: {
        /** @description Allocated per owner, increasing, never reused. */
        id: number;
        /** @description Unique per owner, ignoring case. */
        name: string;
        /** @description Color code. */
        color: number;
        /**
         * Format: date-time
         * @description When the space was stored, ISO 8601 in UTC.
         */
        created_at: string;
        /**
         * Format: date-time
         * @description When the space last changed, ISO 8601 in UTC.
         */
        updated_at: string;
      };
    };
    DomainEvent: {
      /** @description Increases by one with every change of the owner, in the order the changes committed (events from before gapless ids may have gaps). */
      id: string;
      /** @enum {string} */
      type: 'domain.created' | 'domain.updated' | 'domain.verified' | 'domain.deleted';
      /**
       * Format: date-time
       * @description When the change committed, ISO 8601 in UTC.
       */
      created_at: string;
      /** @description The domain after the change; for a delete, its last state. */
      data: {
        /** @description Allocated per owner, increasing, never reused. */
        id: number;
        /** @description Lowercase ASCII hostname (Unicode names in punycode); active under at most one owner at a time. */
        name: string;
        /** @description The name as a browser shows it: in Unicode (`bücher.de` for `xn--bcher-kva.de`), but a label that could pass for another name stays in punycode, as browsers show it (`idn_warning` says why); for ASCII names, the name. */
        unicode_name: string;
        /** @description Why `unicode_name` shows a label in punycode rather than in Unicode, or null when it shows every label in Unicode (and for ASCII names). Decided as Chromium decides what its address bar shows, on UTS #39: `mixed_scripts`: letters of scripts that may not mix (Latin with Cyrillic, as in `exаmple.com` with a Cyrillic `а`; only Chinese, Japanese and Korean mix with ASCII Latin); `whole_script_confusable`: letters of one script that all look like Latin ones (`аррӏе.com`, Cyrillic), under a TLD not of that script; `mixed_numbers`: digits of two numbering systems; `restricted_characters`: a character that is no letter, mark or digit of a script in common modern use (an emoji, a symbol, a historic script), or a combining mark repeated; `invalid_punycode`: a punycode label that does not decode to a name IDNA takes (stored before such labels were refused). The name is still stored and served as it is: only how it is shown differs. */
        idn_warning:
          | (
              | 'invalid_punycode'
              | 'restricted_characters'
              | 'mixed_scripts'
              | 'mixed_numbers'
              | 'whole_script_confusable'
            )
          | null;
        /**
         * @description `pending` until verified: a pending domain does not reserve its name, other owners may store it too. `active` once `POST /domains/{id}/verify` found the TXT record: the name is then held across all owners until the domain is deleted, or until its TXT record has been missing for 7 days (checked hourly), when it returns to `pending`. Only active domains are served.
         * @enum {string}
         */
        status: 'pending' | 'active';
        /**
         * @description Whether the edge serves the domain to its visitors (docs/deployment.md, "What serving says"). `pending` while the domain is pending. Once active: `waiting_for_dns` until its name points at the edge (the CNAME record in `records`, or at a zone apex an ALIAS): no CloudFront tenant exists yet; `provisioning` while CloudFront issues its certificate and deploys its tenant (minutes; locally at once); `active` when visitors get HTTPS and its redirects; `failed` when it cannot be served until you act, with the reason in `serving_error`. A domain waiting for its DNS or certificate is checked again every 5 minutes for 72 hours after it became active, then hourly; `POST /domains/{id}/verify` checks at once.
         * @enum {string}
         */
        serving: 'pending' | 'waiting_for_dns' | 'provisioning' | 'active' | 'failed';
        /** @description Why the edge cannot serve the domain, when `serving` is `failed`; null otherwise. */
        serving_error: {
          /**
           * @description `certificate_failed`: CloudFront could not issue the certificate (the name stopped pointing at the edge, or a CAA record forbids Amazon); `name_in_use`: another CloudFront distribution or tenant holds the name; `pages_too_large`: the pages do not fit the edge (domains stored before pages were measured); `capacity`: the service is at capacity for new domains (a quota is full) and retries by itself (hourly), nothing for the owner to do.
           * @enum {string}
           */
          code: 'certificate_failed' | 'name_in_use' | 'pages_too_large' | 'capacity';
          /** @description What to do about it, safe to show to a user. */
          message: string;
        } | null;
        /** @description Every DNS record to create. The TXT record at `_ds-challenge.<name>` proves the domain (keep it: an active domain whose TXT record stays missing for 7 days returns to `pending`); the CNAME routes its visitors to the edge (at a zone apex, an alias, ALIAS or ANAME record to the routing endpoint: the record then shows as `ALIAS` with that value, found when every address the name answers is one of the edge's). Domains stored before verification existed have only the CNAME. */
        records: {
          /**
           * @description `ALIAS`: the name answered addresses rather than a CNAME (a zone apex, where a CNAME is not allowed): a Route 53 alias record, or your DNS provider's ALIAS, ANAME or flattened CNAME, to the value (the stage's routing endpoint).
           * @enum {string}
           */
          type: 'TXT' | 'CNAME' | 'ALIAS';
          /** @description The name to create the record at. */
          name: string;
          /** @description The value the record must hold. */
          value: string;
          /**
           * @description What the last check found (verification, then hourly while active): `found` as required, `missing` nothing at the name (or not checked yet), `wrong` another value.
           * @enum {string}
           */
          status: 'found' | 'missing' | 'wrong';
        }[];
        /** @description The DNS record that proves the domain is yours; null for domains stored before verification existed (they are active). */
        verification: {
          /** @constant */
          type: 'TXT';
          /** @description Where to publish the record: `_ds-challenge.` followed by the domain's name. */
          name: string;
          /** @description The token the record must hold; random, unique per domain. */
          value: string;
        } | null;
        /** @description Null while pending (and for older domains). */
        verified_at: string | null;
        /** @description Null until the first verification that got an answer from DNS. */
        last_checked_at: string | null;
        /** @description Absolute http(s) URL of the index page, as the URL standard writes it (its href: ASCII, the host in punycode, the rest percent-encoded), or null. */
        index_page: string | null;
        /** @description Absolute http(s) URL to redirect to when a page is not found, as the URL standard writes it (its href: ASCII, the host in punycode, the rest percent-encoded), or null. */
        not_found_page: string | null;
        /**
         * Format: date-time
         * @description When the domain was stored, ISO 8601 in UTC.
         */
        created_at: string;
        /**
         * Format: date-time
         * @description When the domain as shown here last changed, whoever changed it: an update of its pages, a verification or check that recorded what it found (`last_checked_at`, `records`), the edge (`serving`), a return to pending. It moves with the ETag, and with each `domain.updated` or `domain.verified` event, ISO 8601 in UTC.
         */
        updated_at: string;
      };
    };
    WebhookEvent: {
      /** @description Increases by one with every change of the owner, in the order the changes committed (events from before gapless ids may have gaps). */
      id: string;
      /** @enum {string} */
      type: 'webhook.created' | 'webhook.updated' | 'webhook.disabled' | 'webhook.deleted';
      /**
       * Format: date-time
       * @description When the change committed, ISO 8601 in UTC.
       */
      created_at: string;
      /** @description The webhook after the change; for a delete, its last state. */
      data: {
        /** @description Allocated per owner, increasing, never reused. */
        id: number;
        /**
         * Format: uri
         * @description Where deliveries are POSTed, as stored: its WHATWG form (percent-encoded), which may be longer than the 2048 characters sent.
         */
        url: string;
        /** @description The event types delivered: exact types, `<kind>.*` families, or `*` for every event. */
        events: string[];
        /** @description Whether events are delivered. */
        enabled: boolean;
        /** @description A note for you, or null. */
        description: string | null;
        /** @description Why the webhook is disabled: `owner`, you disabled it; `failing`, every delivery failed for 5 days in a row; `key_revoked` or `key_expired`, the API key that last stored, redirected or enabled it (the newest key of its rotation) was revoked or expired, found at its next event (a `webhook.disabled` event says so but for `owner`). Enable it again with a key that may read its events. Null while enabled. */
        disabled_reason: ('owner' | 'failing' | 'key_revoked' | 'key_expired') | null;
        /**
         * Format: date-time
         * @description When the webhook was stored, ISO 8601 in UTC.
         */
        created_at: string;
        /**
         * Format: date-time
         * @description When the webhook last changed, ISO 8601 in UTC.
         */
        updated_at: string;
      };
    };
    AccountEvent: {
      /** @description Increases by one with every change of the owner, in the order the changes committed (events from before gapless ids may have gaps). */
      id: string;
      /** @enum {string} */
      type: 'account.plan_changed';
      /**
       * Format: date-time
       * @description When the change committed, ISO 8601 in UTC.
       */
      created_at: string;
      /** @description The account's change. */
      data: {
        /** @description The plan after the change: its limits hold from this event on. */
        plan: string;
        /** @description The plan before it. */
        previous_plan: string;
      };
    };
    Account: {
      /** @description The owner's plan (the stage's default for an owner the operator has not put on one). */
      plan: string;
      usage: {
        /** @description The owner's domains, against the plan's limit. */
        domains: {
          /** @description The domains the owner holds now. */
          used: number;
          /** @description The most domains the plan allows. A store beyond it is refused (422); `used` may be above it after a move to a smaller plan: what exists stays. */
          limit: number;
        };
        /** @description The owner's spaces, against the plan's limit. */
        spaces: {
          /** @description The spaces the owner holds now. */
          used: number;
          /** @description The most spaces the plan allows. A store beyond it is refused (422); `used` may be above it after a move to a smaller plan: what exists stays. */
          limit: number;
        };
        /** @description The owner's webhooks, against the plan's limit. */
        webhooks: {
          /** @description The webhooks the owner holds now. */
          used: number;
          /** @description The most webhooks the plan allows. A store beyond it is refused (422); `used` may be above it after a move to a smaller plan: what exists stays. */
          limit: number;
        };
      };
      /** @description The key this request was made with. */
      key: {
        /** @description What the key may do. */
        scopes: (
          | 'domains:read'
          | 'domains:write'
          | 'spaces:read'
          | 'spaces:write'
          | 'webhooks:read'
          | 'webhooks:write'
        )[];
        /** @description When the key stops working; null: never. */
        expires_at: string | null;
        /** @description Requests the key may make per 60-second window before 429 (`RateLimit-Policy` on every answer says the same); null: none stated. */
        rate_limit_per_minute: number | null;
      };
    };
    AccountResponse: {
      data: components['schemas']['Account'];
    };
    /** @description A change: kept 30 days. */
    Event:
      | components['schemas']['SpaceEvent']
      | components['schemas']['DomainEvent']
      | components['schemas']['WebhookEvent']
      | components['schemas']['AccountEvent'];
    EventList: {
      data: components['schemas']['Event'][];
      links: {
        /**
         * Format: uri
         * @description The oldest events.
         */
        first: string;
        /**
         * Format: uri
         * @description Where to continue: follow it at once while `meta.has_more`, or later to poll for new events. Never null.
         */
        next: string;
      };
      meta: {
        /**
         * Format: uri
         * @description The feed URL without its query.
         */
        path: string;
        per_page: number;
        /** @description More events are there already: follow `links.next` now. */
        has_more: boolean;
      };
      /** @constant */
      status: 200;
    };
    Error: {
      /** @description What went wrong, safe to show to a user. */
      message: string;
      /** @description The HTTP status, repeated. */
      status: number;
    };
    ValidationError: {
      /** @description The first error message. */
      message: string;
      /** @description Messages by field name (`body` when no single field is at fault). */
      errors: {
        [key: string]: string[];
      };
      /** @constant */
      status: 422;
    };
    /** @description Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.` */
    StoreDomainRequest: {
      name: components['schemas']['DomainName'];
      /**
       * @description Absolute http or https URL of the index page, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string or null means none.
       * @example https://www.example.com/welcome
       */
      index_page?: string | '' | null;
      /**
       * @description Absolute http or https URL to redirect to when a page is not found, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string or null means none.
       * @example https://www.example.com/welcome
       */
      not_found_page?: string | '' | null;
    };
    /** @description Other fields are ignored. */
    StoreDomainForm: {
      name: components['schemas']['DomainName'];
      /**
       * @description Absolute http or https URL of the index page, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string means none.
       * @example https://www.example.com/welcome
       */
      index_page?: string | '';
      /**
       * @description Absolute http or https URL to redirect to when a page is not found, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string means none.
       * @example https://www.example.com/welcome
       */
      not_found_page?: string | '';
    };
    /** @description Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.`, or for the resource's own fields, which a client never writes (`id`, `name`, `unicode_name`, `idn_warning`, `status`, `serving`, `serving_error`, `records`, `verification`, `verified_at`, `last_checked_at`, `created_at`, `updated_at`), `The <field> field cannot be changed.` */
    UpdateDomainRequest: {
      /**
       * @description Absolute http or https URL of the index page, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string or null means none and clears it; absent: unchanged.
       * @example https://www.example.com/welcome
       */
      index_page?: string | '' | null;
      /**
       * @description Absolute http or https URL to redirect to when a page is not found, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string or null means none and clears it; absent: unchanged.
       * @example https://www.example.com/welcome
       */
      not_found_page?: string | '' | null;
    };
    /** @description Other fields are ignored. */
    UpdateDomainForm: {
      /**
       * @description Absolute http or https URL of the index page, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string means none and clears it; absent: unchanged.
       * @example https://www.example.com/welcome
       */
      index_page?: string | '';
      /**
       * @description Absolute http or https URL to redirect to when a page is not found, parsed as the URL standard does (WHATWG): refused (422 on the field) when it does not parse, holds a space or a control character, carries a user name or password, or holds in its host a character the URL parser drops unseen (a soft hyphen, a zero-width space). It is stored and shown as the URL's `href`: a Unicode host in punycode, other non-ASCII characters percent-encoded, `https://example.com` as `https://example.com/`. At most 255 characters as sent; in that form a domain's two pages may take 978 bytes together (the edge keeps both in one 1 KB value: a 422 otherwise). The pattern states that form in ASCII; the service also takes what it normalizes into it (a URL without a path, a Unicode host or path, an IP address). Not on the domain itself, nor on another of the owner's active domains (it would redirect again, in a loop if that domain's pages point back; a verification of a domain whose page is on one is refused the same way): a 422 on the field, which the schema cannot state. An empty string means none and clears it; absent: unchanged.
       * @example https://www.example.com/welcome
       */
      not_found_page?: string | '';
    };
    /** @description Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.` */
    StoreSpaceRequest: {
      /** @description Unique per owner, ignoring case. Spaces around it are trimmed (and not counted). */
      name: components['schemas']['SpaceName'];
      /**
       * @description Color code, a JSON number (not a string, not null).
       * @default 1
       * @example 3
       */
      color?: number;
    };
    /** @description Other fields are ignored. */
    StoreSpaceForm: {
      /** @description Unique per owner, ignoring case. Spaces around it are trimmed (and not counted). */
      name: components['schemas']['SpaceName'];
      /**
       * @description Color code, in digits (spaces and leading zeros are tolerated). Empty: the default, 1.
       * @default 1
       * @example 3
       */
      color?: string;
    };
    /** @description Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.`, or for the resource's own fields, which a client never writes (`id`, `created_at`, `updated_at`), `The <field> field cannot be changed.` */
    UpdateSpaceRequest: {
      /** @description Unique per owner, ignoring case. Spaces around it are trimmed (and not counted). Absent: unchanged. */
      name?: components['schemas']['SpaceName'];
      /**
       * @description Color code, a JSON number (not a string, not null). Absent: unchanged.
       * @example 3
       */
      color?: number;
    };
    /** @description Other fields are ignored. */
    UpdateSpaceForm: {
      /** @description Unique per owner, ignoring case. Spaces around it are trimmed (and not counted). Absent: unchanged. */
      name?: components['schemas']['SpaceName'];
      /**
       * @description Color code, in digits (spaces and leading zeros are tolerated). Empty: unchanged. Absent: unchanged.
       * @example 3
       */
      color?: string;
    };
    /** @description Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.` */
    StoreWebhookRequest: {
      /**
       * Format: uri
       * @description Where deliveries are POSTed: an absolute `https://` URL (the local stack also takes `http://` to this machine) without a user name or password, whose host is a public name or address, without a character the URL parser would drop from it unseen (a soft hyphen, a zero-width space). Refused (422) when its host is, or resolves to, a private, loopback, link-local, multicast, metadata or reserved address (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, fe80::/10…), and checked again at every delivery (DNS can change). Redirects are not followed.
       * @example https://hooks.example.com/domains-spaces
       */
      url: string;
      /**
       * @description The event types to deliver: exact types (`space.created`), a kind's family (`domain.*`, `space.*`, `webhook.*`, `account.*`), or `*` for every event; at most 32, duplicates dropped. Only events the key could read in the feed: a `<kind>` pattern needs `<collection>:read` (`domain.*`: `domains:read`), `account.*` (the account's own events, `account.plan_changed`) any read scope, `*` needs every read scope; others are refused (422 on `events`, naming the missing scopes). Absent: every event the key may read: `*` for a key with every read scope, else the family of each collection it reads and the account's (`["domain.*","account.*"]` for `domains:read`); refused (422) for a key that reads none.
       * @example [
       *       "domain.*"
       *     ]
       */
      events?: (
        | '*'
        | 'domain.*'
        | 'space.*'
        | 'webhook.*'
        | 'account.*'
        | 'domain.created'
        | 'domain.updated'
        | 'domain.verified'
        | 'domain.deleted'
        | 'space.created'
        | 'space.updated'
        | 'space.deleted'
        | 'webhook.created'
        | 'webhook.updated'
        | 'webhook.disabled'
        | 'webhook.deleted'
        | 'account.plan_changed'
      )[];
      /**
       * @description Whether events are delivered. Default true.
       * @default true
       */
      enabled?: boolean;
      /**
       * @description A note for you, at most 255 characters, on one line (no new line, no tab); spaces around it are trimmed; empty or null for none. It holds what a name may hold (see `WebhookDescription`).
       * @example Our CRM
       */
      description?: components['schemas']['WebhookDescription'] | null;
    };
    /** @description Other fields are ignored. */
    StoreWebhookForm: {
      /**
       * Format: uri
       * @description Where deliveries are POSTed: an absolute `https://` URL (the local stack also takes `http://` to this machine) without a user name or password, whose host is a public name or address, without a character the URL parser would drop from it unseen (a soft hyphen, a zero-width space). Refused (422) when its host is, or resolves to, a private, loopback, link-local, multicast, metadata or reserved address (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, fe80::/10…), and checked again at every delivery (DNS can change). Redirects are not followed.
       * @example https://hooks.example.com/domains-spaces
       */
      url: string;
      /**
       * @description The event types to deliver: exact types (`space.created`), a kind's family (`domain.*`, `space.*`, `webhook.*`, `account.*`), or `*` for every event; at most 32, duplicates dropped. Only events the key could read in the feed: a `<kind>` pattern needs `<collection>:read` (`domain.*`: `domains:read`), `account.*` (the account's own events, `account.plan_changed`) any read scope, `*` needs every read scope; others are refused (422 on `events`, naming the missing scopes). Absent: every event the key may read: `*` for a key with every read scope, else the family of each collection it reads and the account's (`["domain.*","account.*"]` for `domains:read`); refused (422) for a key that reads none. In a form: repeat the field (`events[]=domain.*&events[]=space.created`) or separate the patterns with commas.
       * @example domain.*,space.created
       */
      events?:
        | (
            | '*'
            | 'domain.*'
            | 'space.*'
            | 'webhook.*'
            | 'account.*'
            | 'domain.created'
            | 'domain.updated'
            | 'domain.verified'
            | 'domain.deleted'
            | 'space.created'
            | 'space.updated'
            | 'space.deleted'
            | 'webhook.created'
            | 'webhook.updated'
            | 'webhook.disabled'
            | 'webhook.deleted'
            | 'account.plan_changed'
          )[]
        | string;
      /**
       * @description Whether events are delivered. Empty: true.
       * @enum {string}
       */
      enabled?: 'true' | 'false' | '1' | '0' | 'on' | 'off' | '';
      /**
       * @description A note for you, at most 255 characters, on one line (no new line, no tab); spaces around it are trimmed; empty for none. It holds what a name may hold (see `WebhookDescription`).
       * @example Our CRM
       */
      description?: components['schemas']['WebhookDescription'];
    };
    /** @description Strict: no other field. Another field answers 422 on that field: `The <field> field is not allowed.`, or for the resource's own fields, which a client never writes (`id`, `disabled_reason`, `created_at`, `updated_at`), `The <field> field cannot be changed.` */
    UpdateWebhookRequest: {
      /**
       * Format: uri
       * @description Where deliveries are POSTed: an absolute `https://` URL (the local stack also takes `http://` to this machine) without a user name or password, whose host is a public name or address, without a character the URL parser would drop from it unseen (a soft hyphen, a zero-width space). Refused (422) when its host is, or resolves to, a private, loopback, link-local, multicast, metadata or reserved address (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, fe80::/10…), and checked again at every delivery (DNS can change). Redirects are not followed. Absent: unchanged.
       * @example https://hooks.example.com/domains-spaces
       */
      url?: string;
      /**
       * @description The event types to deliver: exact types (`space.created`), a kind's family (`domain.*`, `space.*`, `webhook.*`, `account.*`), or `*` for every event; at most 32, duplicates dropped. Only events the key could read in the feed: a `<kind>` pattern needs `<collection>:read` (`domain.*`: `domains:read`), `account.*` (the account's own events, `account.plan_changed`) any read scope, `*` needs every read scope; others are refused (422 on `events`, naming the missing scopes). Absent: unchanged; but a change of `url` or a re-enabling checks the events the webhook has against the key in the same way.
       * @example [
       *       "domain.*"
       *     ]
       */
      events?: (
        | '*'
        | 'domain.*'
        | 'space.*'
        | 'webhook.*'
        | 'account.*'
        | 'domain.created'
        | 'domain.updated'
        | 'domain.verified'
        | 'domain.deleted'
        | 'space.created'
        | 'space.updated'
        | 'space.deleted'
        | 'webhook.created'
        | 'webhook.updated'
        | 'webhook.disabled'
        | 'webhook.deleted'
        | 'account.plan_changed'
      )[];
      /** @description Whether events are delivered. Enabling a webhook again delivers the events from then on and forgets its failures. Absent: unchanged. */
      enabled?: boolean;
      /**
       * @description A note for you, at most 255 characters, on one line (no new line, no tab); spaces around it are trimmed; empty or null for none. It holds what a name may hold (see `WebhookDescription`). Absent: unchanged.
       * @example Our CRM
       */
      description?: components['schemas']['WebhookDescription'] | null;
    };
    /** @description Other fields are ignored. */
    UpdateWebhookForm: {
      /**
       * Format: uri
       * @description Where deliveries are POSTed: an absolute `https://` URL (the local stack also takes `http://` to this machine) without a user name or password, whose host is a public name or address, without a character the URL parser would drop from it unseen (a soft hyphen, a zero-width space). Refused (422) when its host is, or resolves to, a private, loopback, link-local, multicast, metadata or reserved address (10/8, 172.16/12, 192.168/16, 127/8, 169.254/16, ::1, fc00::/7, fe80::/10…), and checked again at every delivery (DNS can change). Redirects are not followed. Absent: unchanged.
       * @example https://hooks.example.com/domains-spaces
       */
      url?: string;
      /**
       * @description The event types to deliver: exact types (`space.created`), a kind's family (`domain.*`, `space.*`, `webhook.*`, `account.*`), or `*` for every event; at most 32, duplicates dropped. Only events the key could read in the feed: a `<kind>` pattern needs `<collection>:read` (`domain.*`: `domains:read`), `account.*` (the account's own events, `account.plan_changed`) any read scope, `*` needs every read scope; others are refused (422 on `events`, naming the missing scopes). Absent: unchanged; but a change of `url` or a re-enabling checks the events the webhook has against the key in the same way. In a form: repeat the field (`events[]=domain.*&events[]=space.created`) or separate the patterns with commas.
       * @example domain.*,space.created
       */
      events?:
        | (
            | '*'
            | 'domain.*'
            | 'space.*'
            | 'webhook.*'
            | 'account.*'
            | 'domain.created'
            | 'domain.updated'
            | 'domain.verified'
            | 'domain.deleted'
            | 'space.created'
            | 'space.updated'
            | 'space.deleted'
            | 'webhook.created'
            | 'webhook.updated'
            | 'webhook.disabled'
            | 'webhook.deleted'
            | 'account.plan_changed'
          )[]
        | string;
      /**
       * @description Whether events are delivered. Empty: unchanged.
       * @enum {string}
       */
      enabled?: 'true' | 'false' | '1' | '0' | 'on' | 'off' | '';
      /**
       * @description A note for you, at most 255 characters, on one line (no new line, no tab); spaces around it are trimmed; empty for none. It holds what a name may hold (see `WebhookDescription`). Absent: unchanged.
       * @example Our CRM
       */
      description?: components['schemas']['WebhookDescription'];
    };
    /**
     * @description A space's name: at most 32 characters. No control characters, and nothing invisible, blank-looking or that reorders the text: no format character (`\p{Cf}`: zero-width space and joiners, so no emoji joined by U+200D either, word joiner, byte order mark, soft hyphen, bidi embeddings, overrides, isolates and marks, tag characters), no line or paragraph separator, no default-ignorable code point (`\p{Default_Ignorable_Code_Point}`: the combining grapheme joiner U+034F, variation selectors, Hangul fillers…) but for the presentation selector of an emoji (U+FE0F or U+FE0E right after it, as in U+2764 U+FE0F, or in a keycap), no private-use character (`\p{Co}`), no Braille blank U+2800, and no space inside but U+0020 and U+3000 (spaces around it are trimmed). The pattern lists them in the BMP; beyond it, the service also refuses private-use, tag and format characters. Not a lone surrogate either (no Unicode text).
     * @example Marketing
     */
    SpaceName: string;
    /**
     * @description A DNS hostname with at least two labels, stored lowercased in ASCII: a Unicode name (an IDN) is checked by IDNA (UTS #46) and stored in punycode, and a punycode (`xn--`) label is decoded and held to the same rules. At most 239 characters in ASCII, so that the verification record (`_ds-challenge.<name>`) fits in DNS's 253. A leading `http://` or `https://`, a trailing `/` and spaces around it are tolerated and removed. The forms: the name as stored (ASCII, any case; its pattern is exact), an IDN (`idn-hostname`), or any of them as pasted (its pattern is loose: IDNA decides). No control characters, and nothing invisible, blank-looking or that reorders the text: no format character (`\p{Cf}`: zero-width space and joiners, so no emoji joined by U+200D either, word joiner, byte order mark, soft hyphen, bidi embeddings, overrides, isolates and marks, tag characters), no line or paragraph separator, no default-ignorable code point (`\p{Default_Ignorable_Code_Point}`: the combining grapheme joiner U+034F, variation selectors, Hangul fillers…) but for the presentation selector of an emoji (U+FE0F or U+FE0E right after it, as in U+2764 U+FE0F, or in a keycap), no private-use character (`\p{Co}`), no Braille blank U+2800, and no space inside but U+0020 and U+3000 (spaces around it are trimmed). The pattern lists them in the BMP; beyond it, the service also refuses private-use, tag and format characters. Not a lone surrogate either (no Unicode text). Refused (422) when IDNA refuses it, when a label has hyphens in its third and fourth places but is no valid punycode, when it is one of the service's own host names or a name under one (the stage's edge host name, which domains point at, `localhost`, `cloudfront.net`, `amazonaws.com`), when this owner already has the name, or when it is active under another owner.
     * @example example.com
     */
    DomainName: string;
    /** @description A note of at most 255 characters, held to the characters of names. No control characters, and nothing invisible, blank-looking or that reorders the text: no format character (`\p{Cf}`: zero-width space and joiners, so no emoji joined by U+200D either, word joiner, byte order mark, soft hyphen, bidi embeddings, overrides, isolates and marks, tag characters), no line or paragraph separator, no default-ignorable code point (`\p{Default_Ignorable_Code_Point}`: the combining grapheme joiner U+034F, variation selectors, Hangul fillers…) but for the presentation selector of an emoji (U+FE0F or U+FE0E right after it, as in U+2764 U+FE0F, or in a keycap), no private-use character (`\p{Co}`), no Braille blank U+2800, and no space inside but U+0020 and U+3000 (spaces around it are trimmed). The pattern lists them in the BMP; beyond it, the service also refuses private-use, tag and format characters. Not a lone surrogate either (no Unicode text). */
    WebhookDescription: string;
  };
  responses: {
    /** @description The body is not valid JSON, or not a JSON object. */
    BadRequest: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "The request body is not valid JSON.",
         *       "status": 400
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 400;
        };
      };
    };
    /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
    Unauthenticated: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "Unauthenticated.",
         *       "status": 401
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 401;
        };
      };
    };
    /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
    Forbidden: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "This action is unauthorized.",
         *       "status": 403
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 403;
        };
      };
    };
    /** @description No such id for this key's owner (another owner's ids are not found either). */
    NotFound: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "Resource not found.",
         *       "status": 404
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 404;
        };
      };
    };
    /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
    NotAcceptable: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "Not Acceptable. The API answers application/json only.",
         *       "status": 406
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 406;
        };
      };
    };
    /** @description Defensive: the `Idempotency-Key` was taken by a concurrent request whose outcome could not be read back; retry after `Retry-After` seconds (the retry answers that outcome). A repeat of a request still running normally waits for it and answers its outcome. */
    Conflict: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "A request with the same idempotency key is still in progress. Please retry.",
         *       "status": 409
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 409;
        };
      };
    };
    /** @description The feed cursor can no longer be served: events after it may have expired (they are kept 30 days), or it is from another epoch of the feed (the database was restored). Nothing was skipped silently: re-list the resources, then read the feed again from the start. */
    Gone: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "The feed cursor has expired or belongs to an earlier copy of the feed. Re-list the resources, then read the feed again from the start.",
         *       "status": 410
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 410;
        };
      };
    };
    /** @description `If-Match` names no current version of the resource (its `ETag`): it changed since it was read; or `If-None-Match` names the current one, or is `*` (the resource exists). Nothing was changed. */
    PreconditionFailed: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "The resource has been modified.",
         *       "status": 412
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 412;
        };
      };
    };
    /** @description The body is larger than 64 KiB. */
    PayloadTooLarge: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "The request body must not be larger than 64 KiB.",
         *       "status": 413
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 413;
        };
      };
    };
    /** @description The body is neither `application/x-www-form-urlencoded` nor `application/json`. */
    UnsupportedMediaType: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "The request body must be application/x-www-form-urlencoded or application/json.",
         *       "status": 415
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 415;
        };
      };
    };
    /** @description A field is invalid; `errors` has the messages by field. */
    ValidationFailed: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "The name has already been taken.",
         *       "errors": {
         *         "name": [
         *           "The name has already been taken."
         *         ]
         *       },
         *       "status": 422
         *     }
         */
        'application/json': components['schemas']['ValidationError'];
      };
    };
    /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
    TooManyRequests: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "Too Many Requests.",
         *       "status": 429
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 429;
        };
      };
    };
    /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
    ServerError: {
      headers: {
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "Server Error.",
         *       "status": 500
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 500;
        };
      };
    };
    /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
    ServiceUnavailable: {
      headers: {
        'Retry-After': components['headers']['RetryAfter'];
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content: {
        /**
         * @example {
         *       "message": "Service temporarily unavailable. Please retry.",
         *       "status": 503
         *     }
         */
        'application/json': components['schemas']['Error'] & {
          /** @constant */
          status?: 503;
        };
      };
    };
    /** @description The resource is unchanged: `If-None-Match` names its current `ETag` (or is `*`). No body; keep the copy you have. */
    NotModified: {
      headers: {
        ETag: components['headers']['ETag'];
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content?: never;
    };
    /** @description Nothing changed: `If-None-Match` names the current `ETag` (or is `*`). No body. */
    AccountNotModified: {
      headers: {
        ETag: components['headers']['AccountETag'];
        'X-Request-Id': components['headers']['RequestId'];
        'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
        'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
        [name: string]: unknown;
      };
      content?: never;
    };
  };
  parameters: {
    /**
     * @description The resource id. Any value that is not a positive decimal integer answers 404.
     * @example 7
     */
    Id: number;
    /** @description Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is longer than 255 characters, so a longer search matches nothing: the page is empty (it is never ignored). */
    ListSearch: string;
    /** @description The field `search` looks in. An invalid value falls back to the default. */
    ListSearchBy: 'name';
    /** @description `id` is the order of creation; `name` ignores case, and ties break by id in the same direction. An invalid value falls back to the default. */
    ListSortBy: 'id' | 'name';
    /** @description Sort direction. An invalid value falls back to the default. */
    ListSort: 'desc' | 'asc';
    /** @description Items per page. An invalid value falls back to the default. */
    ListPerPage: 10 | 25 | 50 | 100;
    /** @description The page, from 1. Without a cursor, a deep page costs a walk over the pages before it. An invalid value falls back to the default. */
    ListPage: number;
    /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
    ListCursor: string;
    /**
     * @description Where to continue: the cursor of `links.next` (`v1.<epoch>.<id>.<time>`, such as `v1.1764064642000.42.1764064642`: use the one the feed gave you, as it names that feed's epoch), or the `id` of the last event you have (which cannot tell a restored feed from the one you read; `0`: from the start). Absent: from the oldest event kept. Anything else: 422. An expired cursor, or one from another epoch of the feed: 410.
     * @example 0
     */
    EventsAfter: string;
    /** @description Events per page. An invalid value falls back to the default. */
    EventsPerPage: number;
    /**
     * @description Only events whose type starts with this: `domain.` for domains, `space.deleted` for deleted spaces.
     * @example domain.
     */
    EventsType: string;
    /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
    IdempotencyKey: string;
    /**
     * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
     * @example *
     */
    IfMatch: string;
    /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
    IfNoneMatchChange: string;
    /**
     * @description Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.
     * @example "3"
     */
    IfNoneMatch: string;
  };
  requestBodies: {
    StoreDomain: {
      content: {
        /**
         * @example {
         *       "name": "example.com",
         *       "index_page": "https://www.example.com/welcome"
         *     }
         */
        'application/json': components['schemas']['StoreDomainRequest'];
        /**
         * @example {
         *       "name": "example.com",
         *       "index_page": "https://www.example.com/welcome"
         *     }
         */
        'application/x-www-form-urlencoded': components['schemas']['StoreDomainForm'];
      };
    };
    UpdateDomain: {
      content: {
        /**
         * @example {
         *       "not_found_page": "https://www.example.com/404",
         *       "index_page": null
         *     }
         */
        'application/json': components['schemas']['UpdateDomainRequest'];
        /**
         * @example {
         *       "not_found_page": "https://www.example.com/404"
         *     }
         */
        'application/x-www-form-urlencoded': components['schemas']['UpdateDomainForm'];
      };
    };
    StoreSpace: {
      content: {
        /**
         * @example {
         *       "name": "Marketing",
         *       "color": 3
         *     }
         */
        'application/json': components['schemas']['StoreSpaceRequest'];
        /**
         * @example {
         *       "name": "Marketing",
         *       "color": "3"
         *     }
         */
        'application/x-www-form-urlencoded': components['schemas']['StoreSpaceForm'];
      };
    };
    UpdateSpace: {
      content: {
        /**
         * @example {
         *       "color": 5
         *     }
         */
        'application/json': components['schemas']['UpdateSpaceRequest'];
        /**
         * @example {
         *       "color": "5"
         *     }
         */
        'application/x-www-form-urlencoded': components['schemas']['UpdateSpaceForm'];
      };
    };
    StoreWebhook: {
      content: {
        /**
         * @example {
         *       "url": "https://hooks.example.com/domains-spaces",
         *       "events": [
         *         "domain.*"
         *       ],
         *       "description": "Our CRM"
         *     }
         */
        'application/json': components['schemas']['StoreWebhookRequest'];
        /**
         * @example {
         *       "url": "https://hooks.example.com/domains-spaces",
         *       "events": "domain.*",
         *       "description": "Our CRM"
         *     }
         */
        'application/x-www-form-urlencoded': components['schemas']['StoreWebhookForm'];
      };
    };
    UpdateWebhook: {
      content: {
        /**
         * @example {
         *       "enabled": false
         *     }
         */
        'application/json': components['schemas']['UpdateWebhookRequest'];
        /**
         * @example {
         *       "enabled": "false"
         *     }
         */
        'application/x-www-form-urlencoded': components['schemas']['UpdateWebhookForm'];
      };
    };
  };
  headers: {
    /**
     * @description CORS: who may read the answer from a browser: `*`, or the request's `Origin` when it is one of the allowed origins (then with `Vary: Origin`). Absent for an origin that is not allowed.
     * @example *
     */
    AccessControlAllowOrigin: string;
    /**
     * @description CORS: the response headers a browser script may read. With `Access-Control-Allow-Origin`.
     * @example ETag, Location, Retry-After, Idempotent-Replayed, X-Request-Id, RateLimit-Policy, RateLimit
     */
    AccessControlExposeHeaders: string;
    /** @description Seconds to wait before retrying. */
    RetryAfter: number;
    /**
     * @description The representation's strong entity tag (`"a<16 hex digits>"`, a digest of the body): it changes when the plan, a count or the key's facts do. Send it in `If-None-Match` to get 304 while nothing changed.
     * @example "a3f29c0d41b7e6850"
     */
    AccountETag: string;
    /**
     * @description The key's rate limit (draft-ietf-httpapi-ratelimit-headers-10): `"per-key";q=<requests>;w=60`, the requests one key may make per 60-second window before 429. On every answer for a key the authorizer passed, locally and on AWS.
     * @example "per-key";q=300;w=60
     */
    RateLimitPolicy: string;
    /**
     * @description What is left of the key's window (draft-ietf-httpapi-ratelimit-headers-10): `"per-key";r=<remaining>;t=<seconds until it resets>`. Sent by the local stack, which counts; not on AWS, where the web ACL counts and reports nothing (docs/api.md, "Rate limits").
     * @example "per-key";r=299;t=42
     */
    RateLimit: string;
    /** @description The request id the service logged this request with. */
    RequestId: string;
    /**
     * @description The resource's version, a strong entity tag (`"3"`) that changes with every change of the resource. Send it back in `If-Match` to change the resource only if nobody else did meanwhile, or in `If-None-Match` to get 304 while it is unchanged.
     * @example "3"
     */
    ETag: string;
    /**
     * @description Where the stored resource is: the path the request called (as the API's host saw it, a stage included) and the new id, a reference relative to the URL the request called (RFC 9110 §10.2.2).
     * @example /api/v1/spaces/7
     */
    Location: string;
    /** @description Present (`true`) when this is the recorded answer of an earlier request with the same `Idempotency-Key`: nothing was written again. */
    IdempotentReplayed: 'true';
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listDomains: {
    parameters: {
      query?: {
        /** @description Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is longer than 255 characters, so a longer search matches nothing: the page is empty (it is never ignored). */
        search?: components['parameters']['ListSearch'];
        /** @description The field `search` looks in. An invalid value falls back to the default. */
        search_by?: components['parameters']['ListSearchBy'];
        /** @description `id` is the order of creation; `name` ignores case, and ties break by id in the same direction. An invalid value falls back to the default. */
        sort_by?: components['parameters']['ListSortBy'];
        /** @description Sort direction. An invalid value falls back to the default. */
        sort?: components['parameters']['ListSort'];
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description The page, from 1. Without a cursor, a deep page costs a walk over the pages before it. An invalid value falls back to the default. */
        page?: components['parameters']['ListPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page, with links to the others. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": 4,
           *           "name": "example.com",
           *           "unicode_name": "example.com",
           *           "idn_warning": null,
           *           "status": "active",
           *           "serving": "active",
           *           "serving_error": null,
           *           "records": [
           *             {
           *               "type": "TXT",
           *               "name": "_ds-challenge.example.com",
           *               "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *               "status": "found"
           *             },
           *             {
           *               "type": "CNAME",
           *               "name": "example.com",
           *               "value": "edge.example.net",
           *               "status": "found"
           *             }
           *           ],
           *           "verification": {
           *             "type": "TXT",
           *             "name": "_ds-challenge.example.com",
           *             "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *           },
           *           "verified_at": "2025-02-03T16:05:12.345Z",
           *           "last_checked_at": "2025-02-03T16:05:12.345Z",
           *           "index_page": "https://www.example.com/welcome",
           *           "not_found_page": null,
           *           "created_at": "2025-01-15T09:30:00.000Z",
           *           "updated_at": "2025-02-03T16:05:12.345Z"
           *         }
           *       ],
           *       "links": {
           *         "first": "http://127.0.0.1:3000/api/v1/domains?search_by=name&sort_by=id&sort=desc&per_page=10&page=1",
           *         "last": "http://127.0.0.1:3000/api/v1/domains?search_by=name&sort_by=id&sort=desc&per_page=10&page=1",
           *         "prev": null,
           *         "next": null
           *       },
           *       "meta": {
           *         "current_page": 1,
           *         "from": 1,
           *         "last_page": 1,
           *         "path": "http://127.0.0.1:3000/api/v1/domains",
           *         "per_page": 10,
           *         "to": 1,
           *         "total": 1,
           *         "next_cursor": null
           *       },
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['DomainList'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  storeDomain: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: components['requestBodies']['StoreDomain'];
    responses: {
      /** @description The stored domain; `Location` is its URL. */
      201: {
        headers: {
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 4,
           *         "name": "example.com",
           *         "unicode_name": "example.com",
           *         "idn_warning": null,
           *         "status": "pending",
           *         "serving": "pending",
           *         "serving_error": null,
           *         "records": [
           *           {
           *             "type": "TXT",
           *             "name": "_ds-challenge.example.com",
           *             "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *             "status": "missing"
           *           },
           *           {
           *             "type": "CNAME",
           *             "name": "example.com",
           *             "value": "edge.example.net",
           *             "status": "missing"
           *           }
           *         ],
           *         "verification": {
           *           "type": "TXT",
           *           "name": "_ds-challenge.example.com",
           *           "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *         },
           *         "verified_at": null,
           *         "last_checked_at": null,
           *         "index_page": "https://www.example.com/welcome",
           *         "not_found_page": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-01-15T09:30:00.000Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['DomainResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listDomainsHead: {
    parameters: {
      query?: {
        /** @description Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is longer than 255 characters, so a longer search matches nothing: the page is empty (it is never ignored). */
        search?: components['parameters']['ListSearch'];
        /** @description The field `search` looks in. An invalid value falls back to the default. */
        search_by?: components['parameters']['ListSearchBy'];
        /** @description `id` is the order of creation; `name` ignores case, and ties break by id in the same direction. An invalid value falls back to the default. */
        sort_by?: components['parameters']['ListSortBy'];
        /** @description Sort direction. An invalid value falls back to the default. */
        sort?: components['parameters']['ListSort'];
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description The page, from 1. Without a cursor, a deep page costs a walk over the pages before it. An invalid value falls back to the default. */
        page?: components['parameters']['ListPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page, with links to the others. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A field is invalid; `errors` has the messages by field. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  showDomain: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.
         * @example "3"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 4,
           *         "name": "example.com",
           *         "unicode_name": "example.com",
           *         "idn_warning": null,
           *         "status": "active",
           *         "serving": "active",
           *         "serving_error": null,
           *         "records": [
           *           {
           *             "type": "TXT",
           *             "name": "_ds-challenge.example.com",
           *             "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *             "status": "found"
           *           },
           *           {
           *             "type": "CNAME",
           *             "name": "example.com",
           *             "value": "edge.example.net",
           *             "status": "found"
           *           }
           *         ],
           *         "verification": {
           *           "type": "TXT",
           *           "name": "_ds-challenge.example.com",
           *           "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *         },
           *         "verified_at": "2025-02-03T16:05:12.345Z",
           *         "last_checked_at": "2025-02-03T16:05:12.345Z",
           *         "index_page": "https://www.example.com/welcome",
           *         "not_found_page": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['DomainResponse'];
        };
      };
      304: components['responses']['NotModified'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  putDomain: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['UpdateDomain'];
    responses: {
      /** @description The updated domain. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 4,
           *         "name": "example.com",
           *         "unicode_name": "example.com",
           *         "idn_warning": null,
           *         "status": "active",
           *         "serving": "active",
           *         "serving_error": null,
           *         "records": [
           *           {
           *             "type": "TXT",
           *             "name": "_ds-challenge.example.com",
           *             "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *             "status": "found"
           *           },
           *           {
           *             "type": "CNAME",
           *             "name": "example.com",
           *             "value": "edge.example.net",
           *             "status": "found"
           *           }
           *         ],
           *         "verification": {
           *           "type": "TXT",
           *           "name": "_ds-challenge.example.com",
           *           "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *         },
           *         "verified_at": "2025-02-03T16:05:12.345Z",
           *         "last_checked_at": "2025-02-03T16:05:12.345Z",
           *         "index_page": "https://www.example.com/welcome",
           *         "not_found_page": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['DomainResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  destroyDomain: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain is deleted. */
      200: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 4,
           *       "object": "domain",
           *       "deleted": true,
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['Deleted'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  showDomainHead: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.
         * @example "3"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The resource is unchanged: `If-None-Match` names its current `ETag` (or is `*`). No body; keep the copy you have. */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No such id for this key's owner (another owner's ids are not found either). */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  updateDomain: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['UpdateDomain'];
    responses: {
      /** @description The updated domain. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 4,
           *         "name": "example.com",
           *         "unicode_name": "example.com",
           *         "idn_warning": null,
           *         "status": "active",
           *         "serving": "active",
           *         "serving_error": null,
           *         "records": [
           *           {
           *             "type": "TXT",
           *             "name": "_ds-challenge.example.com",
           *             "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *             "status": "found"
           *           },
           *           {
           *             "type": "CNAME",
           *             "name": "example.com",
           *             "value": "edge.example.net",
           *             "status": "found"
           *           }
           *         ],
           *         "verification": {
           *           "type": "TXT",
           *           "name": "_ds-challenge.example.com",
           *           "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *         },
           *         "verified_at": "2025-02-03T16:05:12.345Z",
           *         "last_checked_at": "2025-02-03T16:05:12.345Z",
           *         "index_page": "https://www.example.com/welcome",
           *         "not_found_page": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['DomainResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  verifyDomain: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The domain, verified. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 4,
           *         "name": "example.com",
           *         "unicode_name": "example.com",
           *         "idn_warning": null,
           *         "status": "active",
           *         "serving": "active",
           *         "serving_error": null,
           *         "records": [
           *           {
           *             "type": "TXT",
           *             "name": "_ds-challenge.example.com",
           *             "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *             "status": "found"
           *           },
           *           {
           *             "type": "CNAME",
           *             "name": "example.com",
           *             "value": "edge.example.net",
           *             "status": "found"
           *           }
           *         ],
           *         "verification": {
           *           "type": "TXT",
           *           "name": "_ds-challenge.example.com",
           *           "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *         },
           *         "verified_at": "2025-02-03T16:05:12.345Z",
           *         "last_checked_at": "2025-02-03T16:05:12.345Z",
           *         "index_page": "https://www.example.com/welcome",
           *         "not_found_page": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['DomainResponse'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listSpaces: {
    parameters: {
      query?: {
        /** @description Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is longer than 255 characters, so a longer search matches nothing: the page is empty (it is never ignored). */
        search?: components['parameters']['ListSearch'];
        /** @description The field `search` looks in. An invalid value falls back to the default. */
        search_by?: components['parameters']['ListSearchBy'];
        /** @description `id` is the order of creation; `name` ignores case, and ties break by id in the same direction. An invalid value falls back to the default. */
        sort_by?: components['parameters']['ListSortBy'];
        /** @description Sort direction. An invalid value falls back to the default. */
        sort?: components['parameters']['ListSort'];
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description The page, from 1. Without a cursor, a deep page costs a walk over the pages before it. An invalid value falls back to the default. */
        page?: components['parameters']['ListPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page, with links to the others. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": 7,
           *           "name": "Marketing",
           *           "color": 3,
           *           "created_at": "2025-01-15T09:30:00.000Z",
           *           "updated_at": "2025-02-03T16:05:12.345Z"
           *         }
           *       ],
           *       "links": {
           *         "first": "http://127.0.0.1:3000/api/v1/spaces?search_by=name&sort_by=id&sort=desc&per_page=10&page=1",
           *         "last": "http://127.0.0.1:3000/api/v1/spaces?search_by=name&sort_by=id&sort=desc&per_page=10&page=1",
           *         "prev": null,
           *         "next": null
           *       },
           *       "meta": {
           *         "current_page": 1,
           *         "from": 1,
           *         "last_page": 1,
           *         "path": "http://127.0.0.1:3000/api/v1/spaces",
           *         "per_page": 10,
           *         "to": 1,
           *         "total": 1,
           *         "next_cursor": null
           *       },
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['SpaceList'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  storeSpace: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: components['requestBodies']['StoreSpace'];
    responses: {
      /** @description The stored space; `Location` is its URL. */
      201: {
        headers: {
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 7,
           *         "name": "Marketing",
           *         "color": 3,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['SpaceResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listSpacesHead: {
    parameters: {
      query?: {
        /** @description Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is longer than 255 characters, so a longer search matches nothing: the page is empty (it is never ignored). */
        search?: components['parameters']['ListSearch'];
        /** @description The field `search` looks in. An invalid value falls back to the default. */
        search_by?: components['parameters']['ListSearchBy'];
        /** @description `id` is the order of creation; `name` ignores case, and ties break by id in the same direction. An invalid value falls back to the default. */
        sort_by?: components['parameters']['ListSortBy'];
        /** @description Sort direction. An invalid value falls back to the default. */
        sort?: components['parameters']['ListSort'];
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description The page, from 1. Without a cursor, a deep page costs a walk over the pages before it. An invalid value falls back to the default. */
        page?: components['parameters']['ListPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page, with links to the others. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A field is invalid; `errors` has the messages by field. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  showSpace: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.
         * @example "3"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The space. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 7,
           *         "name": "Marketing",
           *         "color": 3,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['SpaceResponse'];
        };
      };
      304: components['responses']['NotModified'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  putSpace: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['UpdateSpace'];
    responses: {
      /** @description The updated space. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 7,
           *         "name": "Marketing",
           *         "color": 3,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['SpaceResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  destroySpace: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The space is deleted. */
      200: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 7,
           *       "object": "space",
           *       "deleted": true,
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['Deleted'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  showSpaceHead: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.
         * @example "3"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The space. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The resource is unchanged: `If-None-Match` names its current `ETag` (or is `*`). No body; keep the copy you have. */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No such id for this key's owner (another owner's ids are not found either). */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  updateSpace: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['UpdateSpace'];
    responses: {
      /** @description The updated space. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 7,
           *         "name": "Marketing",
           *         "color": 3,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['SpaceResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listWebhooks: {
    parameters: {
      query?: {
        /** @description Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is longer than 255 characters, so a longer search matches nothing: the page is empty (it is never ignored). */
        search?: components['parameters']['ListSearch'];
        /** @description The field `search` looks in. An invalid value falls back to the default. */
        search_by?: components['parameters']['ListSearchBy'];
        /** @description `id` is the order of creation; `name` ignores case, and ties break by id in the same direction. An invalid value falls back to the default. */
        sort_by?: components['parameters']['ListSortBy'];
        /** @description Sort direction. An invalid value falls back to the default. */
        sort?: components['parameters']['ListSort'];
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description The page, from 1. Without a cursor, a deep page costs a walk over the pages before it. An invalid value falls back to the default. */
        page?: components['parameters']['ListPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page, with links to the others. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": 2,
           *           "url": "https://hooks.example.com/domains-spaces",
           *           "events": [
           *             "domain.*"
           *           ],
           *           "enabled": true,
           *           "description": "Our CRM",
           *           "disabled_reason": null,
           *           "created_at": "2025-01-15T09:30:00.000Z",
           *           "updated_at": "2025-02-03T16:05:12.345Z"
           *         }
           *       ],
           *       "links": {
           *         "first": "http://127.0.0.1:3000/api/v1/webhooks?search_by=name&sort_by=id&sort=desc&per_page=10&page=1",
           *         "last": "http://127.0.0.1:3000/api/v1/webhooks?search_by=name&sort_by=id&sort=desc&per_page=10&page=1",
           *         "prev": null,
           *         "next": null
           *       },
           *       "meta": {
           *         "current_page": 1,
           *         "from": 1,
           *         "last_page": 1,
           *         "path": "http://127.0.0.1:3000/api/v1/webhooks",
           *         "per_page": 10,
           *         "to": 1,
           *         "total": 1,
           *         "next_cursor": null
           *       },
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['WebhookList'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  storeWebhook: {
    parameters: {
      query?: never;
      header?: {
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path?: never;
      cookie?: never;
    };
    requestBody: components['requestBodies']['StoreWebhook'];
    responses: {
      /** @description The stored webhook; `Location` is its URL. */
      201: {
        headers: {
          ETag: components['headers']['ETag'];
          Location: components['headers']['Location'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 2,
           *         "url": "https://hooks.example.com/domains-spaces",
           *         "events": [
           *           "domain.*"
           *         ],
           *         "enabled": true,
           *         "description": "Our CRM",
           *         "disabled_reason": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-01-15T09:30:00.000Z",
           *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw1Nq3Rn/BWgo="
           *       }
           *     }
           */
          'application/json': components['schemas']['WebhookWithSecretResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listWebhooksHead: {
    parameters: {
      query?: {
        /** @description Case-insensitive substring of the name (of a domain: its ASCII or its Unicode form), trimmed. No name is longer than 255 characters, so a longer search matches nothing: the page is empty (it is never ignored). */
        search?: components['parameters']['ListSearch'];
        /** @description The field `search` looks in. An invalid value falls back to the default. */
        search_by?: components['parameters']['ListSearchBy'];
        /** @description `id` is the order of creation; `name` ignores case, and ties break by id in the same direction. An invalid value falls back to the default. */
        sort_by?: components['parameters']['ListSortBy'];
        /** @description Sort direction. An invalid value falls back to the default. */
        sort?: components['parameters']['ListSort'];
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description The page, from 1. Without a cursor, a deep page costs a walk over the pages before it. An invalid value falls back to the default. */
        page?: components['parameters']['ListPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page, with links to the others. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A field is invalid; `errors` has the messages by field. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  showWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.
         * @example "3"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The webhook. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 2,
           *         "url": "https://hooks.example.com/domains-spaces",
           *         "events": [
           *           "domain.*"
           *         ],
           *         "enabled": true,
           *         "description": "Our CRM",
           *         "disabled_reason": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['WebhookResponse'];
        };
      };
      304: components['responses']['NotModified'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  putWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['UpdateWebhook'];
    responses: {
      /** @description The updated webhook. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 2,
           *         "url": "https://hooks.example.com/domains-spaces",
           *         "events": [
           *           "domain.*"
           *         ],
           *         "enabled": true,
           *         "description": "Our CRM",
           *         "disabled_reason": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['WebhookResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  destroyWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The webhook is deleted. */
      200: {
        headers: {
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "id": 2,
           *       "object": "webhook",
           *       "deleted": true,
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['Deleted'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  showWebhookHead: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Answer 304 without a body if the current version is one of these `ETag`s (weak comparison) or the value is `*`.
         * @example "3"
         */
        'If-None-Match'?: components['parameters']['IfNoneMatch'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The webhook. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The resource is unchanged: `If-None-Match` names its current `ETag` (or is `*`). No body; keep the copy you have. */
      304: {
        headers: {
          ETag: components['headers']['ETag'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No such id for this key's owner (another owner's ids are not found either). */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  updateWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Change the resource only if its current version is none of these `ETag`s (weak comparison). `*` means any version: the resource exists, so the answer is 412 and nothing changes (RFC 9110: it guards a write meant for a resource that does not exist yet). Checked in the same conditional write as the change, after `If-Match`. */
        'If-None-Match'?: components['parameters']['IfNoneMatchChange'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: components['requestBodies']['UpdateWebhook'];
    responses: {
      /** @description The updated webhook. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 2,
           *         "url": "https://hooks.example.com/domains-spaces",
           *         "events": [
           *           "domain.*"
           *         ],
           *         "enabled": true,
           *         "description": "Our CRM",
           *         "disabled_reason": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['WebhookResponse'];
        };
      };
      400: components['responses']['BadRequest'];
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      413: components['responses']['PayloadTooLarge'];
      415: components['responses']['UnsupportedMediaType'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  rotateSecretWebhook: {
    parameters: {
      query?: never;
      header?: {
        /**
         * @description Change the resource only if its current version is one of these `ETag`s (such as `"3"`, as a show or the last change answered it), or `*`: any (the resource must exist). Otherwise 412, and nothing changes; checked in the same conditional write as the change.
         * @example *
         */
        'If-Match'?: components['parameters']['IfMatch'];
        /** @description Makes the write (store, update, delete, verify) safe to retry: 1 to 255 printable ASCII characters, unique per request (a new UUID each time, such as `9b2f6a1e-3c4d-4e5f-8a9b-0c1d2e3f4a5b`), kept 24 hours for the key's owner. A repeat with the same key and the same request (method, path, body) writes nothing and answers the first answer again, with `Idempotent-Replayed: true`; the same key with another request answers 422. Only successful answers are recorded: after a 4xx or 5xx the same key can be used again. A key that is not 1 to 255 printable ASCII characters answers 422 (with an `{id}` the owner does not have, 404 or this 422). The parameter has no `example`, on purpose: a key is for one request, and a tool that sent a documented one with every request would get 422 from the second on. */
        'Idempotency-Key'?: components['parameters']['IdempotencyKey'];
      };
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The webhook with its new secret. */
      200: {
        headers: {
          ETag: components['headers']['ETag'];
          'Idempotent-Replayed': components['headers']['IdempotentReplayed'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "id": 2,
           *         "url": "https://hooks.example.com/domains-spaces",
           *         "events": [
           *           "domain.*"
           *         ],
           *         "enabled": true,
           *         "description": "Our CRM",
           *         "disabled_reason": null,
           *         "created_at": "2025-01-15T09:30:00.000Z",
           *         "updated_at": "2025-01-15T09:30:00.000Z",
           *         "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw1Nq3Rn/BWgo="
           *       }
           *     }
           */
          'application/json': components['schemas']['WebhookWithSecretResponse'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      409: components['responses']['Conflict'];
      412: components['responses']['PreconditionFailed'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  testWebhook: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The attempt. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "event_id": "000000000042",
           *         "event_type": "domain.updated",
           *         "message_id": "msg_2_000000000042",
           *         "attempt": 2,
           *         "status_code": 200,
           *         "error": null,
           *         "duration_ms": 84,
           *         "succeeded": true,
           *         "response_excerpt": "ok",
           *         "pending": false,
           *         "created_at": "2025-02-03T16:05:12.345Z"
           *       }
           *     }
           */
          'application/json': components['schemas']['DeliveryResponse'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listWebhookDeliveries: {
    parameters: {
      query?: {
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of attempts, newest first. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "event_id": "000000000042",
           *           "event_type": "domain.updated",
           *           "message_id": "msg_2_000000000042",
           *           "attempt": 2,
           *           "status_code": 200,
           *           "error": null,
           *           "duration_ms": 84,
           *           "succeeded": true,
           *           "response_excerpt": "ok",
           *           "pending": false,
           *           "created_at": "2025-02-03T16:05:12.345Z"
           *         },
           *         {
           *           "event_id": "000000000042",
           *           "event_type": "domain.updated",
           *           "message_id": "msg_2_000000000042",
           *           "attempt": 1,
           *           "status_code": 503,
           *           "error": null,
           *           "duration_ms": 41,
           *           "succeeded": false,
           *           "response_excerpt": "Service Unavailable",
           *           "pending": false,
           *           "created_at": "2025-01-15T09:30:00.000Z"
           *         }
           *       ],
           *       "links": {
           *         "first": "http://127.0.0.1:3000/api/v1/webhooks/2/deliveries?per_page=10",
           *         "next": "http://127.0.0.1:3000/api/v1/webhooks/2/deliveries?per_page=10&cursor=eyJwIjoxfQ.c2lnbmF0dXJl"
           *       },
           *       "meta": {
           *         "path": "http://127.0.0.1:3000/api/v1/webhooks/2/deliveries",
           *         "per_page": 10,
           *         "next_cursor": "eyJwIjoxfQ.c2lnbmF0dXJl"
           *       },
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['DeliveryList'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      404: components['responses']['NotFound'];
      406: components['responses']['NotAcceptable'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listWebhookDeliveriesHead: {
    parameters: {
      query?: {
        /** @description Items per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['ListPerPage'];
        /** @description Opaque; from `links.next` or `meta.next_cursor`. Reads from where the previous page ended. It is only valid with the same owner, search, sort and per_page: otherwise the answer is 422 on `cursor`. */
        cursor?: components['parameters']['ListCursor'];
      };
      header?: never;
      path: {
        /**
         * @description The resource id. Any value that is not a positive decimal integer answers 404.
         * @example 7
         */
        id: components['parameters']['Id'];
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description One page of attempts, newest first. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description No such id for this key's owner (another owner's ids are not found either). */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A field is invalid; `errors` has the messages by field. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  listEvents: {
    parameters: {
      query?: {
        /**
         * @description Where to continue: the cursor of `links.next` (`v1.<epoch>.<id>.<time>`, such as `v1.1764064642000.42.1764064642`: use the one the feed gave you, as it names that feed's epoch), or the `id` of the last event you have (which cannot tell a restored feed from the one you read; `0`: from the start). Absent: from the oldest event kept. Anything else: 422. An expired cursor, or one from another epoch of the feed: 410.
         * @example 0
         */
        after?: components['parameters']['EventsAfter'];
        /** @description Events per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['EventsPerPage'];
        /**
         * @description Only events whose type starts with this: `domain.` for domains, `space.deleted` for deleted spaces.
         * @example domain.
         */
        type?: components['parameters']['EventsType'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Events after `after`, oldest first. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": [
           *         {
           *           "id": "000000000041",
           *           "type": "domain.created",
           *           "created_at": "2025-01-15T09:30:00.000Z",
           *           "data": {
           *             "id": 4,
           *             "name": "example.com",
           *             "unicode_name": "example.com",
           *             "idn_warning": null,
           *             "status": "active",
           *             "serving": "active",
           *             "serving_error": null,
           *             "records": [
           *               {
           *                 "type": "TXT",
           *                 "name": "_ds-challenge.example.com",
           *                 "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *                 "status": "found"
           *               },
           *               {
           *                 "type": "CNAME",
           *                 "name": "example.com",
           *                 "value": "edge.example.net",
           *                 "status": "found"
           *               }
           *             ],
           *             "verification": {
           *               "type": "TXT",
           *               "name": "_ds-challenge.example.com",
           *               "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *             },
           *             "verified_at": "2025-02-03T16:05:12.345Z",
           *             "last_checked_at": "2025-02-03T16:05:12.345Z",
           *             "index_page": "https://www.example.com/welcome",
           *             "not_found_page": null,
           *             "created_at": "2025-01-15T09:30:00.000Z",
           *             "updated_at": "2025-02-03T16:05:12.345Z"
           *           }
           *         },
           *         {
           *           "id": "000000000042",
           *           "type": "domain.updated",
           *           "created_at": "2025-02-03T16:05:12.345Z",
           *           "data": {
           *             "id": 4,
           *             "name": "example.com",
           *             "unicode_name": "example.com",
           *             "idn_warning": null,
           *             "status": "active",
           *             "serving": "active",
           *             "serving_error": null,
           *             "records": [
           *               {
           *                 "type": "TXT",
           *                 "name": "_ds-challenge.example.com",
           *                 "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
           *                 "status": "found"
           *               },
           *               {
           *                 "type": "CNAME",
           *                 "name": "example.com",
           *                 "value": "edge.example.net",
           *                 "status": "found"
           *               }
           *             ],
           *             "verification": {
           *               "type": "TXT",
           *               "name": "_ds-challenge.example.com",
           *               "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
           *             },
           *             "verified_at": "2025-02-03T16:05:12.345Z",
           *             "last_checked_at": "2025-02-03T16:05:12.345Z",
           *             "index_page": "https://www.example.com/welcome",
           *             "not_found_page": "https://www.example.com/404",
           *             "created_at": "2025-01-15T09:30:00.000Z",
           *             "updated_at": "2025-02-03T16:05:12.345Z"
           *           }
           *         }
           *       ],
           *       "links": {
           *         "first": "http://127.0.0.1:3000/api/v1/events?per_page=10",
           *         "next": "http://127.0.0.1:3000/api/v1/events?after=v1.1764064642000.42.1764064582&per_page=10"
           *       },
           *       "meta": {
           *         "path": "http://127.0.0.1:3000/api/v1/events",
           *         "per_page": 10,
           *         "has_more": false
           *       },
           *       "status": 200
           *     }
           */
          'application/json': components['schemas']['EventList'];
        };
      };
      401: components['responses']['Unauthenticated'];
      403: components['responses']['Forbidden'];
      406: components['responses']['NotAcceptable'];
      410: components['responses']['Gone'];
      422: components['responses']['ValidationFailed'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  listEventsHead: {
    parameters: {
      query?: {
        /**
         * @description Where to continue: the cursor of `links.next` (`v1.<epoch>.<id>.<time>`, such as `v1.1764064642000.42.1764064642`: use the one the feed gave you, as it names that feed's epoch), or the `id` of the last event you have (which cannot tell a restored feed from the one you read; `0`: from the start). Absent: from the oldest event kept. Anything else: 422. An expired cursor, or one from another epoch of the feed: 410.
         * @example 0
         */
        after?: components['parameters']['EventsAfter'];
        /** @description Events per page. An invalid value falls back to the default. */
        per_page?: components['parameters']['EventsPerPage'];
        /**
         * @description Only events whose type starts with this: `domain.` for domains, `space.deleted` for deleted spaces.
         * @example domain.
         */
        type?: components['parameters']['EventsType'];
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Events after `after`, oldest first. */
      200: {
        headers: {
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The key is valid, but its scopes do not cover this operation: the operation's `security` names the scope it needs. */
      403: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The feed cursor can no longer be served: events after it may have expired (they are kept 30 days), or it is from another epoch of the feed (the database was restored). Nothing was skipped silently: re-list the resources, then read the feed again from the start. */
      410: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A field is invalid; `errors` has the messages by field. */
      422: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  showAccount: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The owner's account. */
      200: {
        headers: {
          ETag: components['headers']['AccountETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "data": {
           *         "plan": "starter",
           *         "usage": {
           *           "domains": {
           *             "used": 3,
           *             "limit": 3
           *           },
           *           "spaces": {
           *             "used": 1,
           *             "limit": 3
           *           },
           *           "webhooks": {
           *             "used": 0,
           *             "limit": 1
           *           }
           *         },
           *         "key": {
           *           "scopes": [
           *             "domains:read",
           *             "spaces:read"
           *           ],
           *           "expires_at": "2027-01-01T00:00:00.000Z",
           *           "rate_limit_per_minute": 300
           *         }
           *       }
           *     }
           */
          'application/json': components['schemas']['AccountResponse'];
        };
      };
      304: components['responses']['AccountNotModified'];
      401: components['responses']['Unauthenticated'];
      406: components['responses']['NotAcceptable'];
      429: components['responses']['TooManyRequests'];
      500: components['responses']['ServerError'];
      503: components['responses']['ServiceUnavailable'];
    };
  };
  showAccountHead: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The owner's account. */
      200: {
        headers: {
          ETag: components['headers']['AccountETag'];
          'RateLimit-Policy': components['headers']['RateLimitPolicy'];
          RateLimit: components['headers']['RateLimit'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Nothing changed: `If-None-Match` names the current `ETag` (or is `*`). No body. */
      304: {
        headers: {
          ETag: components['headers']['AccountETag'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The `Authorization: Bearer <key>` header is missing or malformed, or the key is unknown, revoked or expired. */
      401: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description `Accept` excludes `application/json`, the one media type the API answers in (`*\/*`, `application/*` and `application/json` admit it, unless with `q=0`; no `Accept` admits anything). Nothing was done. */
      406: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Over the key's rate limit (requests per minute) or the API's request rate; retry after `Retry-After` seconds. On AWS the per-key limit is answered by the firewall before the API, without `X-Request-Id`. */
      429: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description An unexpected failure; it is logged with the request id, and the body holds no details. */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The database is throttling or unavailable, a write kept losing races with concurrent writes of the same owner for its 4-second budget (nothing was written), or (when verifying a domain, or storing or updating a webhook's `url`) DNS did not answer the lookup: the message then says so, and which resolver was asked; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  showOpenApiDocument: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document. */
      200: {
        headers: {
          /**
           * @description Caches may keep the document a few minutes.
           * @example public, max-age=300
           */
          'Cache-Control': string;
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            openapi: '3.1.0';
            info: Record<string, never>;
            paths: Record<string, never>;
          };
        };
      };
      /** @description The document is not built yet (a local stack before `npm run openapi`). */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @constant */
            status?: 404;
          };
        };
      };
      /** @description On AWS: S3, which holds the deployed document, refused to read it (a broken deployment). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @constant */
            status?: 500;
          };
        };
      };
      /** @description On AWS: S3, which holds the deployed document, failed or is slowing requests down; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content: {
          'application/json': components['schemas']['Error'] & {
            /** @constant */
            status?: 503;
          };
        };
      };
    };
  };
  showOpenApiDocumentHead: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The OpenAPI 3.1 document. */
      200: {
        headers: {
          /**
           * @description Caches may keep the document a few minutes.
           * @example public, max-age=300
           */
          'Cache-Control': string;
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The document is not built yet (a local stack before `npm run openapi`). */
      404: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description On AWS: S3, which holds the deployed document, refused to read it (a broken deployment). */
      500: {
        headers: {
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description On AWS: S3, which holds the deployed document, failed or is slowing requests down; retry after `Retry-After` seconds. */
      503: {
        headers: {
          'Retry-After': components['headers']['RetryAfter'];
          'X-Request-Id': components['headers']['RequestId'];
          'Access-Control-Allow-Origin': components['headers']['AccessControlAllowOrigin'];
          'Access-Control-Expose-Headers': components['headers']['AccessControlExposeHeaders'];
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receiveChange: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The message id: the same on every attempt of this event to this webhook (`msg_<webhook>_<event id>`). Deliveries are at least once: deduplicate by it.
         * @example msg_2_000000000042
         */
        'webhook-id': string;
        /**
         * @description When this attempt was signed, in seconds since the epoch. Refuse a delivery more than about 5 minutes from your clock (a replayed request): the libraries do.
         * @example 1738598712
         */
        'webhook-timestamp': string;
        /**
         * @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the bytes your secret's base64 stands for (after `whsec_`). For 24 hours after a rotation there are two, space-separated, one per secret: accept the delivery when any one matches. Verify with a Standard Webhooks library (the `standardwebhooks` npm package, say) over the body exactly as received.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
        'user-agent': 'domains-spaces-webhooks/1.0';
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        /**
         * @example {
         *       "id": "000000000042",
         *       "type": "domain.updated",
         *       "created_at": "2025-02-03T16:05:12.345Z",
         *       "data": {
         *         "id": 4,
         *         "name": "example.com",
         *         "unicode_name": "example.com",
         *         "idn_warning": null,
         *         "status": "active",
         *         "serving": "active",
         *         "serving_error": null,
         *         "records": [
         *           {
         *             "type": "TXT",
         *             "name": "_ds-challenge.example.com",
         *             "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU",
         *             "status": "found"
         *           },
         *           {
         *             "type": "CNAME",
         *             "name": "example.com",
         *             "value": "edge.example.net",
         *             "status": "found"
         *           }
         *         ],
         *         "verification": {
         *           "type": "TXT",
         *           "name": "_ds-challenge.example.com",
         *           "value": "q3Vn2fXk9bT1sLw8PzR4yHc6JmA0eDgU"
         *         },
         *         "verified_at": "2025-02-03T16:05:12.345Z",
         *         "last_checked_at": "2025-02-03T16:05:12.345Z",
         *         "index_page": "https://www.example.com/welcome",
         *         "not_found_page": "https://www.example.com/404",
         *         "created_at": "2025-01-15T09:30:00.000Z",
         *         "updated_at": "2025-02-03T16:05:12.345Z"
         *       }
         *     }
         */
        'application/json': components['schemas']['Event'];
      };
    };
    responses: {
      /** @description Delivered: a 2xx status line within 10 s, whatever the body does after it. Nothing more is sent for this event. The body is read for at most 1 s after the status and 4 KiB; its first 256 characters are kept with the attempt. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description Anything else (another status, a redirect, which is not followed, a timeout, a refused connection) is a failed attempt, retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (each ±10 %): 8 attempts over more than 24 hours. A webhook whose every attempt failed for 5 days is disabled (`disabled_reason: "failing"`, a `webhook.disabled` event). */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
  receiveTest: {
    parameters: {
      query?: never;
      header: {
        /**
         * @description The message id: the same on every attempt of this event to this webhook (`msg_<webhook>_<event id>`). Deliveries are at least once: deduplicate by it.
         * @example msg_2_000000000042
         */
        'webhook-id': string;
        /**
         * @description When this attempt was signed, in seconds since the epoch. Refuse a delivery more than about 5 minutes from your clock (a replayed request): the libraries do.
         * @example 1738598712
         */
        'webhook-timestamp': string;
        /**
         * @description `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the bytes your secret's base64 stands for (after `whsec_`). For 24 hours after a rotation there are two, space-separated, one per secret: accept the delivery when any one matches. Verify with a Standard Webhooks library (the `standardwebhooks` npm package, say) over the body exactly as received.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        'webhook-signature': string;
        'user-agent': 'domains-spaces-webhooks/1.0';
      };
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': components['schemas']['WebhookTestEvent'];
      };
    };
    responses: {
      /** @description Delivered: a 2xx status line within 10 s, whatever the body does after it. Nothing more is sent for this event. The body is read for at most 1 s after the status and 4 KiB; its first 256 characters are kept with the attempt. */
      '2XX': {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description The attempt failed; it is not retried. */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
    };
  };
}
