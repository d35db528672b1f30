/** How the report writes figures and tables: every section writes them the same way. */
import type { Spread } from '#bench/handlers.ts';
import type { Summary } from '#bench/support.ts';

export const kb = (bytes: number) => (bytes / 1000).toFixed(1);
export const ms = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
export const range = (s: Summary | Spread, digits = 2) =>
  `${ms('median' in s ? s.median : s.value, digits)} [${ms(s.min, digits)}–${ms(s.max, digits)}]`;
export const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;
export const pass = (ok: boolean) => (ok ? '✅ pass' : '❌ over');
export const sizeLabel = (size: number) =>
  size >= 1000 ? `${(size / 1000).toLocaleString('en-US')}k`.replace('.0k', 'k') : String(size);

export function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) =>
    `| ${cells.map((cell) => String(cell).replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

export const sumOf = (values: number[]) => values.reduce((sum, value) => sum + value, 0);
