/**
 * What the compiler refuses about the registry of kinds (`npm run typecheck` compiles this file; each
 * `@ts-expect-error` fails the build if the line below it ever compiles): a kind without its module, a module
 * under another kind's name, a module without its documentation for a field, a kind without its presenter.
 * Adding a kind to `lib/kinds.ts` is therefore a compile error until the registry and the presenters have it.
 */

import { domains } from '#lib/domains/api/index.ts';
import type { FieldDocs } from '#lib/kind-module.ts';
import type { Kind } from '#lib/kinds.ts';
import { type Registered, resources } from '#lib/registry.ts';
import { spaceFieldDocs, type storeSpaceBody, type updateSpaceBody } from '#lib/spaces/api/fields.ts';
import { spaces } from '#lib/spaces/api/index.ts';
import { webhooks } from '#lib/webhooks/api/index.ts';

/** A kind the registry does not have yet, as a new kind would be before its module is registered. */
type WithLinks = Kind | 'link';

// @ts-expect-error: the registry lacks the kind `link`.
export const withoutLinks: { [K in WithLinks]: { kind: K } } = resources;

// @ts-expect-error: the spaces module registered under `domain`.
export const swapped = { space: spaces, domain: spaces } satisfies { [K in Kind]: Registered<K> };

// @ts-expect-error: documentation missing for the color field.
export const undocumented: FieldDocs<{ store: typeof storeSpaceBody; update: typeof updateSpaceBody }> = {
  name: spaceFieldDocs.name,
};

/** The registry as it is compiles: every kind, each under its own name. */
export const complete: { [K in Kind]: Registered<K> } = { space: spaces, domain: domains, webhook: webhooks };
