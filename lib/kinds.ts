/**
 * The kinds of resource the API serves, on the ground floor: the data layer's keys (`lib/data/keys.ts`), the
 * route table (`lib/routes.ts`) and the registry of kinds (`lib/registry.ts`) all start from this list.
 */

/**
 * The collections, in the order the route table and the document list them. `kind` is the singular the data
 * layer stores (item key prefixes, `deleted.object`); `title` and `tag` are the display names.
 */
export const collections = {
  domains: { kind: 'domain', title: 'Domain', tag: 'Domains' },
  spaces: { kind: 'space', title: 'Space', tag: 'Spaces' },
  webhooks: { kind: 'webhook', title: 'Webhook', tag: 'Webhooks' },
} as const;

export type Collection = keyof typeof collections;
export type Kind = (typeof collections)[Collection]['kind'];

/** The kinds of change each collection's events report besides being created, updated and deleted. */
export const changes = { domains: ['verified'], spaces: [], webhooks: ['disabled'] } as const satisfies Record<
  Collection,
  readonly string[]
>;

/** What each collection's items do besides the resource actions (`/{id}/<action>`, in `lib/routes.ts`). */
export const itemActions = {
  domains: ['verify'],
  spaces: [],
  webhooks: ['rotate-secret', 'test', 'deliveries'],
} as const satisfies Record<Collection, readonly string[]>;

/**
 * What a collection's writes hold and check besides the item itself: the facts the DynamoDB actions of its routes
 * follow from (`lib/routes.ts`), so a new kind states them or does not compile.
 * - `name`: `free` (no guard: a webhook's URL), `fixed` (a name guard holds it once per owner, and no update
 *   renames it: a domain), `renamable` (a name guard holds it once per owner, and an update that renames it moves
 *   the guard: Delete the old one, Put the new one: a space);
 * - `checksOthers`: its store and update check guards it does not take (ConditionCheck): a domain's name not
 *   active under another owner, its pages not on its owner's other active domains.
 */
export type Guards = { name: 'free' | 'fixed' | 'renamable'; checksOthers: boolean };

export const guards = {
  domains: { name: 'fixed', checksOthers: true },
  spaces: { name: 'renamable', checksOthers: false },
  webhooks: { name: 'free', checksOthers: false },
} as const satisfies Record<Collection, Guards>;

/**
 * What a field of a kind's record is to everything past the data layer: `published` (its events carry it, and
 * its presenter shows what the API shows of it), `internal` (the data layer's own: bookkeeping, the key line a
 * webhook is held to; no event carries it) or `secret` (no event, log line or answer carries it, but the one
 * answer its API declares: a webhook's store and rotation). Each kind declares every field of its record in
 * `storedFields` below, checked against the record's type in its `data/`, and the event writer
 * drops what is not published (`eventRecordOf`, `lib/data/item.ts`).
 */
export type FieldUse = 'published' | 'internal' | 'secret';

/**
 * Each field a kind's record stores besides every record's own (`lib/data/item.ts`), with its use: declared here,
 * with the kind, so the event writer reads every kind's without importing any kind's folder, and checked against
 * the kind's record type in its `data/` (`FieldsDeclared`): a field without its use does not compile.
 */
export const storedFields = {
  domain: {
    indexPage: 'published',
    notFoundPage: 'published',
    status: 'published',
    // Published as the TXT record to publish (`verification`): the owner's to see, and no key to anything.
    verificationToken: 'published',
    verifiedAt: 'published',
    lastCheckedAt: 'published',
    check: 'published',
    serving: 'published',
    servingFailure: 'published',
    // The edge shard that serves it, chosen once (`lib/edge/data/edge-shards.ts`): the edge's bookkeeping.
    edgeShard: 'internal',
  },
  space: { color: 'published' },
  webhook: {
    events: 'published',
    enabled: 'published',
    description: 'published',
    enabledAt: 'published',
    disabledAt: 'published',
    disabledReason: 'published',
    // The rotation line of the key that directed it: which key it is held to is the data layer's.
    keyLineage: 'internal',
    // Its signing secrets: shown once, by its store's and its rotation's answers (`presentWithSecret`).
    secrets: 'secret',
    // Bookkeeping: when its run of failed deliveries began.
    failingSince: 'internal',
  },
} as const satisfies Record<Kind, Readonly<Record<string, FieldUse>>>;

/** Every kind of change a resource's event reports: `<kind>.created`, `.updated`, the kind's own, `.deleted`. */
export type ResourceEventType = {
  [C in Collection]: `${(typeof collections)[C]['kind']}.${'created' | 'updated' | 'deleted' | (typeof changes)[C][number]}`;
}[Collection];

/**
 * The owner's account has events of its own, in the same feed: no collection's, so no collection's scope reads
 * them; any read scope does (as any lets a key read the feed), and `/account` shows the same to any key.
 */
export const ACCOUNT = 'account';
export const accountChanges = ['plan_changed'] as const;
export type AccountEventType = `${typeof ACCOUNT}.${(typeof accountChanges)[number]}`;

/** Every type of event the feed lists. */
export type EventType = ResourceEventType | AccountEventType;
/** What an event is of: a kind of resource, or the account. */
export type EventKind = Kind | typeof ACCOUNT;

export const collectionNames = /* @__PURE__ */ Object.keys(collections) as Collection[];

/** The collection of a kind's items (`domain`: `domains`). */
export const collectionOf = (kind: Kind): Collection =>
  collectionNames.find((collection) => collections[collection].kind === kind) as Collection;
export const kinds: readonly Kind[] = /* @__PURE__ */ collectionNames.map((collection) => collections[collection].kind);

export const eventTypes: readonly EventType[] = /* @__PURE__ */ [
  ...collectionNames.flatMap((collection) => {
    const { kind } = collections[collection];
    const own = changes[collection].map((change: string) => `${kind}.${change}`);
    return [`${kind}.created`, `${kind}.updated`, ...own, `${kind}.deleted`];
  }),
  ...accountChanges.map((change) => `${ACCOUNT}.${change}`),
] as EventType[];

/** Every kind an event may be of: the resources', then the account. */
export const eventKinds: readonly EventKind[] = /* @__PURE__ */ [...kinds, ACCOUNT];

/** What a key may do: read (list, show) or write (store, update, destroy) one collection. */
export type Access = 'read' | 'write';
export type Scope = `${Collection}:${Access}`;
export const scopes: readonly Scope[] = /* @__PURE__ */ collectionNames.flatMap((collection) => [
  `${collection}:read` as const,
  `${collection}:write` as const,
]);
