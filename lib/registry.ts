/**
 * The registry of kinds: one module per kind (`ResourceModule`), for what reads every kind: the OpenAPI
 * document (`lib/openapi`), the event schemas (`lib/feed/schemas.ts`), the fuzzer. A kind of `lib/kinds.ts` without its
 * module here does not compile. Functions never import this: it carries every kind's documentation.
 */
import type { Kind } from '#lib/kinds.ts';
import { domains } from './domains/api/index.ts';
import type { ResourceModule } from './kind-module.ts';
import { spaces } from './spaces/api/index.ts';
import { webhooks } from './webhooks/api/index.ts';

/** Any kind's module, as the registry checks it: its `kind` must be the key it stands under. */
export type Registered<K extends Kind> = ResourceModule<K, unknown, never>;

export const resources = { space: spaces, domain: domains, webhook: webhooks } as const satisfies {
  [K in Kind]: Registered<K>;
};

export type Resources = typeof resources;
/** The resource a kind's API shows. */
export type ResourceOf<K extends Kind> = ReturnType<Resources[K]['present']>;
