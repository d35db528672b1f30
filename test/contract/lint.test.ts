/** A third-party OpenAPI linter: Redocly CLI with its recommended rules (`redocly.yaml`). */
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE, redocly } from '#lib/openapi/files.ts';

type LintReport = { totals: { errors: number; warnings: number }; problems: { ruleId: string; message: string }[] };

describe('redocly lint', () => {
  it('finds no errors and no warnings in docs/openapi.json', async () => {
    // Act: the linter exits non-zero on errors, and still prints its report.
    const stdout = await redocly(['lint', OPENAPI_FILE, '--format', 'json']).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    const report = JSON.parse(stdout) as LintReport;
    // Assess
    expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
