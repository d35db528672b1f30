/**
 * The kinds of resource the API serves, on the ground floor: the data layer's keys (`lib/data/keys.ts`), the
 * route table (`lib/routes.ts`) and the resource registry (`lib/resources/`) all start from this list.
 */

/**
 * The collections, in the order the route table and the document list them. `kind` is the singular the data
 * layer stores (item key prefixes, `deleted.object`); `title` and `tag` are the display names; `changes` the
 * kinds of change its events report besides being created, updated and deleted; `itemActions` what its items
 * do besides the resource actions (`/{id}/<action>`, in `lib/routes.ts`).
 */
export const collections = {
  domains: { kind: 'domain', title: 'Domain', tag: 'Domains', changes: ['verified'], itemActions: ['verify'] },
  spaces: { kind: 'space', title: 'Space', tag: 'Spaces', changes: [], itemActions: [] },
} as const;

export type Collection = keyof typeof collections;
export type Kind = (typeof collections)[Collection]['kind'];

/** Every kind of change an event reports: `<kind>.created`, `.updated`, the kind's own, `.deleted`. */
export type EventType = {
  [C in Collection]: `${(typeof collections)[C]['kind']}.${'created' | 'updated' | 'deleted' | (typeof collections)[C]['changes'][number]}`;
}[Collection];

export const collectionNames = /* @__PURE__ */ Object.keys(collections) as Collection[];
export const kinds: readonly Kind[] = /* @__PURE__ */ collectionNames.map((collection) => collections[collection].kind);

export const eventTypes: readonly EventType[] = /* @__PURE__ */ collectionNames.flatMap((collection) => {
  const { kind, changes } = collections[collection];
  return [`${kind}.created`, `${kind}.updated`, ...changes.map((change) => `${kind}.${change}`), `${kind}.deleted`];
}) as EventType[];

/** What a key may do: read (list, show) or write (store, update, destroy) one collection. */
export type Access = 'read' | 'write';
export type Scope = `${Collection}:${Access}`;
export const scopes: readonly Scope[] = /* @__PURE__ */ collectionNames.flatMap((collection) => [
  `${collection}:read` as const,
  `${collection}:write` as const,
]);
