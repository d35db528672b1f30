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

/** Every kind of change an event reports: `<kind>.created`, `.updated`, the kind's own, `.deleted`. */
export type EventType = {
  [C in Collection]: `${(typeof collections)[C]['kind']}.${'created' | 'updated' | 'deleted' | (typeof changes)[C][number]}`;
}[Collection];

export const collectionNames = /* @__PURE__ */ Object.keys(collections) as Collection[];
export const kinds: readonly Kind[] = /* @__PURE__ */ collectionNames.map((collection) => collections[collection].kind);

export const eventTypes: readonly EventType[] = /* @__PURE__ */ collectionNames.flatMap((collection) => {
  const { kind } = collections[collection];
  const own = changes[collection].map((change: string) => `${kind}.${change}`);
  return [`${kind}.created`, `${kind}.updated`, ...own, `${kind}.deleted`];
}) as EventType[];

/** What a key may do: read (list, show) or write (store, update, destroy) one collection. */
export type Access = 'read' | 'write';
export type Scope = `${Collection}:${Access}`;
export const scopes: readonly Scope[] = /* @__PURE__ */ collectionNames.flatMap((collection) => [
  `${collection}:read` as const,
  `${collection}:write` as const,
]);
