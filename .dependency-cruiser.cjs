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

/** The HTTP layer: what the data layer must not know about. */
const httpLayer = [
  '^lib/http/',
  '^lib/schemas/',
  '^lib/openapi/',
  '^lib/resources[.]ts$',
  '^lib/errors[.]ts$',
  '^lib/cursor[.]ts$',
  '^functions/',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module reaches itself through its imports (type-only imports included).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'data-not-to-http',
      severity: 'error',
      comment:
        'The data layer speaks in domain terms and returns records; request fields, wording, bodies and ' +
        'cursors belong to the HTTP layer (lib/http, lib/schemas, lib/openapi, lib/resources.ts, lib/errors.ts, ' +
        'lib/cursor.ts, functions/).',
      from: { path: '^lib/data/' },
      to: { path: httpLayer },
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
