import { configDefaults, defineConfig } from 'vitest/config';

/** The e2e suites that run through the DynamoDB-faithful harness (test/support/database.ts), as reliability does. */
const harnessedE2e = ['test/e2e/idempotency.test.ts', 'test/e2e/conditional.test.ts', 'test/e2e/events.test.ts'];
const throughHarness = { TEST_DYNAMODB_HARNESS: 'on' };

/**
 * Tests are split by what they need: unit (no I/O), integration (DynamoDB Local), e2e (HTTP to the
 * local gateway), infra (CDK template assertions). One DynamoDB Local serves the whole run;
 * each file that imports `test/support/database.ts` gets a table of its own.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    // Logs (the handlers' JSON lines) are printed for failing tests only: the output is the results.
    silent: 'passed-only',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'integration', include: ['test/integration/**/*.test.ts'] } },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...harnessedE2e],
        },
      },
      { extends: true, test: { name: 'e2e-harness', include: harnessedE2e, env: throughHarness } },
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'] } },
      { extends: true, test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'], env: throughHarness } },
      { extends: true, test: { name: 'perf', include: ['test/perf/**/*.test.ts'] } },
      { extends: true, test: { name: 'contract', include: ['test/contract/**/*.test.ts'] } },
      { extends: true, test: { name: 'harness', include: ['test/harness/**/*.test.ts'] } },
      { extends: true, test: { name: 'client', include: ['client/test/**/*.test.ts'] } },
    ],
  },
});
