/**
 * Import cycles and layer rules, checked by `npm run lint` (`depcruise lib functions infra scripts bench test`)
 * and by test/contract/architecture.test.ts, which also shows each rule firing on a fixture.
 *
 * Parser: swc (`@swc/core`). TypeScript 7 has no JavaScript compiler API, so dependency-cruiser's `tsc` parser
 * (and with it `tsPreCompilationDeps`, which asks for it) is unavailable; swc parses TypeScript and reports
 * `import type` like any import, so type-only imports count for cycles and layers. The `#lib/*`-style subpath
 * imports resolve through package.json's `imports`; `not-to-unresolvable` fails the run if one ever stops
 * resolving, so a resolver that quietly drops them cannot make the other rules pass on an empty graph.
 * The tree has no violation: lint fails on any.
 */

/** The concepts: each lives in one folder of lib/ (README, "Layout"). */
const CONCEPTS = 'domains|spaces|webhooks';

/**
 * The layers of lib/, bottom up, told by folder: a module imports only from its own layer or those below.
 * - platform: what everything stands on (configuration, cold start, log, retry, text), and the kinds;
 * - rules: a folder's `rules/`, pure functions and facts (no I/O);
 * - settings: a folder's `settings.ts`, its configuration read at cold start;
 * - data: the generic store (`lib/data/`) and each folder's own storage (`data/`), the only DynamoDB users;
 * - services: the other files at a folder's root: its jobs and adapters (the re-check, the webhooks' sender
 *   and dispatch, the edge's sync, DNS, the authorizer's policy);
 * - http: what answers requests: lib/http/, lib/schemas/, the change feed (with every kind's presenter), each
 *   concept's `api/`, and the registry of kinds at lib/'s root;
 * - openapi: the document, built from all of it.
 */
const layers = {
  platform: ['^lib/platform/', '^lib/kinds[.]ts$', '^lib/routes[.]ts$'],
  rules: ['^lib/[^/]+/rules/'],
  settings: ['^lib/[^/]+/settings[.]ts$'],
  data: ['^lib/data/', '^lib/[^/]+/data/'],
  services: [`^lib/(${CONCEPTS}|auth|dns|edge)/[^/]+[.]ts$`],
  http: ['^lib/(http|schemas|feed)/', '^lib/[^/]+/api/', '^lib/(kind-module|registry)[.]ts$'],
  openapi: ['^lib/openapi/'],
};
const order = Object.keys(layers);
/** A module's layer is the first that claims it, so a later, wider pattern never reclaims an earlier one's. */
const claimedBefore = (index) => order.slice(0, index).flatMap((layer) => layers[layer]);
const above = (index) =>
  order.slice(index + 1).map((layer, offset) => ({ path: layers[layer], pathNot: claimedBefore(index + 1 + offset) }));
const layerRules = order.slice(0, -1).flatMap((layer, index) =>
  above(index).map((to, offset) => ({
    name: `layer-${layer}`,
    severity: 'error',
    comment: `lib/'s ${layer} layer imports only from its own layer or below (${order.slice(0, index + 1).join(', ')}), not from ${order[index + 1 + offset]}.`,
    from: { path: layers[layer], pathNot: claimedBefore(index) },
    to,
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'lib-in-a-layer',
      severity: 'error',
      comment: 'Every module of lib/ stands on one of the layers above (a folder of its own, or the map at the root).',
      from: { path: '^lib/', pathNot: Object.values(layers).flat() },
      to: {},
    },
    {
      name: 'concept-through-rules',
      severity: 'error',
      comment:
        'A concept imports another concept only through its `rules/` (its pure facts), never its storage, jobs or API.',
      from: { path: `^lib/(${CONCEPTS})/` },
      to: { path: `^lib/(${CONCEPTS})/`, pathNot: ['^lib/$1/', '^lib/[^/]+/rules/'] },
    },
    {
      name: 'generic-store-knows-no-kind',
      severity: 'error',
      comment:
        "The generic store (lib/data/) imports no concept's storage or API: a kind's items are its own folder's.",
      from: { path: '^lib/data/' },
      to: { path: `^lib/(${CONCEPTS})/(data|api)/` },
    },
    {
      name: 'concept-api-from-the-map',
      severity: 'error',
      comment:
        "A concept's API (`api/`) is imported by its functions, the registry of kinds, the feed's presenter of " +
        'every kind (lib/feed/present.ts), the OpenAPI document and its own folder: nothing else in lib/ or infra/.',
      from: {
        path: '^(lib|infra)/',
        pathNot: ['^lib/registry[.]ts$', '^lib/feed/present[.]ts$', '^lib/openapi/', `^lib/(${CONCEPTS})/`],
      },
      to: { path: `^lib/(${CONCEPTS})/api/` },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module reaches itself through its imports (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'dynamodb-sdk-only-in-data-layer',
      severity: 'error',
      comment:
        "Among lib/ and functions/, only the data layer (lib/data/ and each folder's data/) talks to DynamoDB; " +
        'the rest goes through it. infra/, scripts/, bench/ and test/ may use the SDK directly.',
      from: { path: '^(lib|functions)/', pathNot: ['^lib/data/', '^lib/[^/]+/data/'] },
      to: { path: '(^|/)node_modules/@aws-sdk/(client-dynamodb|lib-dynamodb|util-dynamodb)/' },
    },
    {
      name: 'lib-not-to-tooling',
      severity: 'error',
      comment: 'lib/ is what ships; it never imports from test/, bench/, scripts/ or infra/.',
      from: { path: '^lib/' },
      to: { path: '^(test|bench|scripts|infra)/' },
    },
    {
      name: 'local-stack-not-to-scripts',
      severity: 'error',
      comment: "The local stack (infra/local/) is infrastructure: it uses lib/, never the operator's scripts/.",
      from: { path: '^infra/' },
      to: { path: '^scripts/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'An import that does not resolve to a file or package (a `#lib/...` path that does not exist?). ' +
        "The edge function's `cloudfront` is CloudFront Functions' own module, there only.",
      from: {},
      to: { couldNotResolve: true, pathNot: '^cloudfront$' },
    },
  ],
  options: {
    parser: 'swc',
    moduleSystems: ['es6', 'cjs'],
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['^bench/results/', '^cdk[.]out/'] },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
