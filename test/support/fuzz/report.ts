/** What a fuzz run found: its figures, the answers per operation and status, the failures; and how it reads. */

export type FuzzReport = {
  seed: number;
  cases: number;
  requests: number;
  ms: number;
  /** Answers per operation and status. */
  statuses: Record<string, Record<string, number>>;
  failures: string[];
  /** Answers the environment explains (a DNS resolver the stack cannot reach), not the contract. */
  environment: string[];
};

/** Counts an answer of the operation `id` by its status. */
export function tally(report: FuzzReport, id: string, status: number | string): void {
  report.statuses[id] ??= {};
  const counts = report.statuses[id] as Record<string, number>;
  counts[status] = (counts[status] ?? 0) + 1;
}

/** The report as lines: figures, statuses per operation, failures. */
export function describeReport(report: FuzzReport): string {
  const lines = [
    `${report.cases} cases, ${report.requests} requests in ${(report.ms / 1000).toFixed(1)} s (seed ${report.seed})`,
    ...Object.entries(report.statuses)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(
        ([id, counts]) =>
          `  ${id.padEnd(24)} ${Object.entries(counts)
            .map(([status, n]) => `${status}×${n}`)
            .join(' ')}`,
      ),
  ];
  if (report.environment.length > 0)
    lines.push(`${report.environment.length} answers explained by the environment: ${report.environment[0]}`);
  lines.push(report.failures.length === 0 ? 'No failures.' : `${report.failures.length} failures:`);
  lines.push(...report.failures.map((failure) => `  - ${failure}`));
  return lines.join('\n');
}
