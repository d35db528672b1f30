import { defineConfig } from 'vitest/config';

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
      { extends: true, test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'] } },
      { extends: true, test: { name: 'infra', include: ['test/infra/**/*.test.ts'] } },
      { extends: true, test: { name: 'reliability', include: ['test/reliability/**/*.test.ts'] } },
      { extends: true, test: { name: 'perf', include: ['test/perf/**/*.test.ts'] } },
      { extends: true, test: { name: 'contract', include: ['test/contract/**/*.test.ts'] } },
      { extends: true, test: { name: 'harness', include: ['test/harness/**/*.test.ts'] } },
    ],
  },
});
