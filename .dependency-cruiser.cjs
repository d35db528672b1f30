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

/**
 * The floors of lib/, bottom up: a module imports only from its own floor or those below. Pure rules and facts
 * (ground); the configuration; the adapters to the outside (DynamoDB, DNS, CloudFront, webhook delivery) and the
 * data layer; the jobs that use them (the re-check, the edge's sync and sweep); the HTTP layer (handlers'
 * wiring, schemas, resource modules, the route table, errors); the OpenAPI document, on top.
 */
const floors = {
  ground: [
    '^lib/(kinds|table|log|integers|characters|punycode|idn|idn-display|urls|retry|verification|domain-records|domain-status)[.]ts$',
    '^lib/settings/',
    '^lib/auth/(api-key|expiry|scopes|request-key)[.]ts$',
    '^lib/edge/record[.]ts$',
    '^lib/webhooks/(signature|schedule|address|event-patterns|failures)[.]ts$',
  ],
  config: ['^lib/(cold-start|config)[.]ts$', '^lib/(edge|webhooks)/settings[.]ts$'],
  adapters: [
    '^lib/data/',
    '^lib/dynamodb[.]ts$',
    '^lib/dns/',
    '^lib/edge/(ports|cloudfront)[.]ts$',
    '^lib/webhooks/delivery[.]ts$',
  ],
  jobs: ['^lib/domain-checks[.]ts$', '^lib/edge/(sync|sweep|writer)[.]ts$', '^lib/webhook-dispatch[.]ts$'],
  http: [
    '^lib/(http|schemas|resources)/',
    '^lib/(resources|errors|cursor|events-bus|gateway-responses|routes)[.]ts$',
    '^lib/auth/policy[.]ts$',
  ],
  openapi: ['^lib/openapi/'],
};
const order = ['ground', 'config', 'adapters', 'jobs', 'http', 'openapi'];
/** One rule per floor: nothing above it. */
const floorRules = order.slice(0, -1).map((floor, index) => ({
  name: `floor-${floor}`,
  severity: 'error',
  comment: `lib/'s ${floor} floor imports only from its own floor or below (${order.slice(0, index + 1).join(', ')}).`,
  from: { path: floors[floor] },
  to: { path: order.slice(index + 1).flatMap((above) => floors[above]) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...floorRules,
    {
      name: 'lib-in-a-floor',
      severity: 'error',
      comment: 'Every module of lib/ stands on one of the floors above (a new one: add it to its floor).',
      from: { path: '^lib/', pathNot: Object.values(floors).flat() },
      to: {},
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
        'Among lib/ and functions/, only the data layer (lib/data/, lib/dynamodb.ts) talks to DynamoDB; the ' +
        'rest goes through it. infra/, scripts/, bench/ and test/ may use the SDK directly.',
      from: { path: '^(lib|functions)/', pathNot: ['^lib/data/', '^lib/dynamodb[.]ts$'] },
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
