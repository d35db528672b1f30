/** Section 6 of the report: peak memory of each warm function, against the configured memory size. */
import type { MemorySection } from '#bench/memory.ts';
import { ms, table } from '#bench/report/format.ts';
import type { LambdaSettings } from '#bench/report/results.ts';

export function memorySection(memory: MemorySection, lambda: LambdaSettings): string {
  const rows = memory.functions.map((fn) => [fn.name, ms(fn.peakRssMb, 1), ms(fn.rssMb, 1), ms(fn.heapUsedMb, 1)]);
  const peak = Math.max(...memory.functions.map((f) => f.peakRssMb));
  const configured = lambda.memorySizeMb
    ? `The stack configures **${lambda.memorySizeMb} MB** for every function (${lambda.source}).`
    : 'The stack does not configure a memory size yet.';
  const verdict =
    lambda.memorySizeMb === 512
      ? '**Confirmed: keep 512 MB**'
      : `**Recommended: 512 MB** (${lambda.memorySizeMb ? `instead of ${lambda.memorySizeMb} MB` : 'not configured yet'})`;
  return [
    '## 6. Memory',
    '',
    `Each deployed bundle imported in a fresh Node ${memory.node} process and invoked ${memory.invocations} times in a row against DynamoDB Local; peak RSS is the process's \`maxRSS\`, close to what Lambda reports as "Max Memory Used" (there the runtime interface client shares the process and adds a little).`,
    '',
    table(['Function', 'Peak RSS MB', 'RSS at end MB', 'Heap used MB'], rows),
    '',
    `${configured} Peak RSS is ${ms(peak, 1)} MB, so memory is not what sizes these functions: CPU is. Lambda allocates CPU in proportion to memory (1,769 MB = one vCPU), and the cold start, i.e. loading and evaluating the ~240 KB SDK bundle measured in section 1, is CPU-bound: at 128 MB (≈ 1/14 vCPU) it would take over ten times as long as here, and each warm request's few milliseconds of CPU (SDK marshalling and signing, section 2) likewise. 512 MB (≈ 0.29 vCPU) keeps cold starts within a few hundred milliseconds while warm requests, which mostly wait on DynamoDB, bill a few tens of milliseconds; at 1,024 MB the cold start roughly halves again for twice the price per millisecond. ${verdict}; revisit with CloudWatch's Init Duration and Max Memory Used after deployment.`,
  ].join('\n');
}
