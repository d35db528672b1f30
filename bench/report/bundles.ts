/** Section 1 of the report: bundle size and cold start, with what the numbers say (format, init floor, Powertools). */
import type { BundleSection } from '#bench/bundles.ts';
import { baseline, budgetOf, ownBudgets, sdkBaseline } from '#bench/report/budgets.ts';
import { kb, ms, pass, range, sumOf, table } from '#bench/report/format.ts';

/** The module format, chosen by measurement: the deployed one against the other, every function, same run. */
function formatNote(bundles: BundleSection): string {
  const deployed = sumOf(bundles.functions.map((fn) => fn.init.median));
  const other = sumOf(bundles.functions.map((fn) => fn.alternative.init.median));
  const otherName = bundles.functions[0]?.alternative.format ?? 'other';
  // Repeated runs on this machine move the sums by about 5 % (load): a smaller difference is no difference,
  // and the source format (ESM) stays.
  const faster = other < deployed * 0.95 ? otherName : bundles.format;
  const perFunction = (deployed - other) / Math.max(1, bundles.functions.length);
  return `- **Module format.** Every function was also bundled as ${otherName.toUpperCase()} and measured in the same processes. Summed medians: ${bundles.format.toUpperCase()} (deployed) ${ms(deployed, 1)} ms, ${otherName.toUpperCase()} ${ms(other, 1)} ms (${ms(Math.abs(perFunction), 1)} ms per function ${perFunction >= 0 ? 'in favour of' : 'against'} ${otherName.toUpperCase()}). ${faster === bundles.format ? `The deployed format, ${bundles.format.toUpperCase()}, is the one with the lower init, or the two are within 5 % (the spread between repeated runs on this machine, which has put either format ahead), so it stays.` : `${otherName.toUpperCase()} initialises faster by more than 5 %: switch \`format\` in \`infra/bundling.ts\`.`} The measurement is Lambda-faithful: each process first imports the modules the Node.js runtime has already loaded before the handler (${'`node:http`'}, ${'`node:https`'} and the rest of \`RUNTIME_MODULES\` in \`bench/bundles.ts\`). Without that preload, CommonJS looked about 30 % faster (34.2 against 47.7 ms in the previous report), but only because an ES module's first \`import\` of \`node:http\` builds its ESM facade, which the runtime has already done on Lambda.`;
}

/** Where the init floor is: what any function must load, measured against the budget's reference. */
function floorNote(bundles: BundleSection): string {
  const sdk = sdkBaseline(bundles);
  const floor = baseline(bundles, 'low-level client only');
  const cjs = baseline(bundles, 'SDK client only, CommonJS');
  if (!sdk || !floor) return '- The init floor was not measured.';
  const target = sdk.init.median * bundles.initBudgetRatio;
  return `- **The init budget and its floor.** The budget asks every function to initialise in at most ${bundles.initBudgetRatio} × the "SDK client only" module, ${ms(target, 1)} ms in this run. Every function contains that module (it is how a function talks to DynamoDB), so none can go below it by trimming our code; the question is whether anything within the mandated SDK can. The low-level client alone, without the document client, initialises in ${ms(floor.init.median, 1)} ms (${ms(floor.init.median / sdk.init.median)}×)${cjs ? `, and the SDK client as CommonJS in ${ms(cjs.init.median, 1)} ms (${ms(cjs.init.median / sdk.init.median)}×)` : ''}: ${floor.init.median > target ? 'both above the budget, so 0.8× is below the floor of the SDK the project mandates, and no choice of format or trimming reaches it. Our own code adds the difference between each function and "SDK client only" (the "Init ÷ SDK only" column).' : 'the budget is reachable within the SDK.'}`;
}

/** Powertools Logger, measured against the bundle and init budgets. */
function powertoolsNote(bundles: BundleSection): string {
  const sdk = sdkBaseline(bundles);
  const logger = baseline(bundles, 'SDK client + Powertools Logger');
  if (!sdk || !logger) return '- Powertools Logger was not measured.';
  const addedKb = (logger.bytes - sdk.bytes) / 1000;
  const addedMs = logger.init.median - sdk.init.median;
  // Against the API functions' budget: a function with a budget of its own (the edge sync) is measured apart.
  const apiFunctions = bundles.functions.filter((fn) => budgetOf(bundles, fn) === bundles.sizeBudgetBytes);
  const biggest = (apiFunctions.length > 0 ? apiFunctions : bundles.functions).reduce((a, b) =>
    b.bytes > a.bytes ? b : a,
  );
  const largest = biggest.bytes;
  const budget = budgetOf(bundles, biggest);
  const fits = largest + (logger.bytes - sdk.bytes) <= budget;
  return `- **Powertools Logger.** Added to the "SDK client only" module it adds ${ms(addedKb, 1)} KB and ${ms(addedMs, 1)} ms of init. With it the largest API function (${biggest.name}) would be ${kb(largest + logger.bytes - sdk.bytes)} KB against the ${kb(budget)} KB budget: ${fits ? 'it fits the size budget' : 'over the size budget'}, and it adds init to functions already above the init floor. ${fits && addedMs <= 1 ? 'It could be adopted.' : 'Not adopted: Lambda’s JSON log format (set on every function in `infra/constructs/api-function.ts`) already gives every entry the request id, level and timestamp, and `lib/platform/log.ts` logs one structured object per entry at no cost.'}`;
}

export function bundleSection(bundles: BundleSection, chart: string): string {
  const sdk = sdkBaseline(bundles);
  const largest = bundles.functions.find((f) => f.name === bundles.largest.name);
  const withBudgets = ownBudgets(bundles).length > 0;
  const rows = bundles.functions.map((fn) => [
    fn.name,
    kb(fn.bytes),
    ...(withBudgets ? [`${kb(budgetOf(bundles, fn))} ${pass(fn.bytes <= budgetOf(bundles, fn))}`] : []),
    kb(fn.deflatedBytes),
    kb(fn.ownBytes),
    range(fn.init, 1),
    sdk ? ms(fn.init.median / sdk.init.median) : 'n/a',
    range(fn.alternative.init, 1),
    ms(fn.rssAfterInitMb, 1),
    fn.top
      .slice(0, 3)
      .map((c) => `${c.name} ${kb(c.bytes)}`)
      .join(', '),
  ]);
  return [
    '## 1. Bundle size and cold start',
    '',
    `Every function is bundled with the options in \`infra/bundling.ts\` (the ones the CDK stack passes to \`NodejsFunction\`), entry points from \`lib/routes.ts\` and the authorizer. Sizes are the minified bundle (\`index.js\`, ${bundles.format === 'cjs' ? 'CommonJS' : 'an ES module'}; source map excluded; "deflated" approximates the zip Lambda stores). Module init is the time of \`await import(bundle)\` measured inside a fresh \`node\` ${bundles.node} process with a Lambda-like environment, median of ${bundles.processes} processes [min–max], modules interleaved round-robin. The ratio compares each function with the AWS SDK document client alone, bundled and measured the same way in the same run.`,
    '',
    `![Bundle sizes](${chart})`,
    '',
    table(
      [
        'Function',
        'Minified KB',
        ...(withBudgets ? ['Budget KB'] : []),
        'Deflated KB',
        'Our code KB',
        'Init ms',
        'Init ÷ SDK only',
        'Init ms, other format',
        'RSS after init MB',
        'Top contributors (KB)',
      ],
      rows,
    ),
    '',
    'Floors and alternatives, same options, same run:',
    '',
    table(
      ['Module', 'Minified KB', 'Init ms', 'What it is'],
      bundles.baselines.map((b) => [b.name, kb(b.bytes), range(b.init, 1), b.description]),
    ),
    '',
    `Biggest contributors to the largest bundle (${bundles.largest.name}${largest ? `, ${kb(largest.bytes)} KB` : ''}):`,
    '',
    table(
      ['Contributor', 'KB'],
      bundles.largest.top.map((c) => [c.name, kb(c.bytes)]),
    ),
    '',
    'What the numbers say:',
    '',
    `- The AWS SDK (\`@smithy/*\`, \`@aws-sdk/*\`) is almost the whole bundle; our code (\`functions/\`, \`lib/\`) is the orange sliver. Init is dominated by the SDK too: compare each function with "SDK client only".`,
    "- The SDK's default credential chain imports the SSO, INI-file, process, web-identity, login, container and instance-metadata providers (with the STS/SSO-OIDC/sign-in clients behind them) only when no credentials are in the environment, which never happens on Lambda. Bundled, they would add about 125 KB to every function. `infra/bundling.ts` marks them external (`unusedCredentialProviders`).",
    formatNote(bundles),
    floorNote(bundles),
    powertoolsNote(bundles),
  ].join('\n');
}
