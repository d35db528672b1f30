/** The report's SVG charts, drawn here as strings (no dependencies): scale, bundle sizes, contention. */
import type { BundleSection } from '#bench/bundles.ts';
import type { ContentionRun, ContentionSection } from '#bench/contention.ts';
import { budgetOf } from '#bench/report/budgets.ts';
import { kb, ms, plural, sizeLabel } from '#bench/report/format.ts';
import type { ScaleSection } from '#bench/scale.ts';

const xmlText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b'];

/** Latency against collection size, both on log scales, one line per list operation. */
export function scaleChart(scale: ScaleSection): string {
  const width = 760;
  const height = 420;
  const margin = { left: 70, right: 210, top: 40, bottom: 55 };
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const operations = [...new Set(scale.measures.map((m) => m.operation))];
  const values = scale.measures.flatMap((m) => [m.latencyMs.min, m.latencyMs.max, m.latencyMs.median]);
  const yMin = 10 ** Math.floor(Math.log10(Math.max(0.1, Math.min(...values))));
  const yMax = 10 ** Math.ceil(Math.log10(Math.max(...values)));
  const xMin = Math.min(...scale.sizes);
  const xMax = Math.max(...scale.sizes);
  const x = (size: number) =>
    margin.left +
    (xMax === xMin
      ? plotW / 2
      : ((Math.log10(size) - Math.log10(xMin)) / (Math.log10(xMax) - Math.log10(xMin))) * plotW);
  const y = (value: number) =>
    margin.top + plotH - ((Math.log10(value) - Math.log10(yMin)) / (Math.log10(yMax) - Math.log10(yMin))) * plotH;
  const parts: string[] = [];
  parts.push(
    `<text x="${margin.left + plotW / 2}" y="22" font-size="15" font-weight="bold" text-anchor="middle">List latency vs collection size (median, min–max)</text>`,
  );
  for (let decade = yMin; decade <= yMax * 1.0001; decade *= 10) {
    parts.push(
      `<line x1="${margin.left}" x2="${margin.left + plotW}" y1="${y(decade)}" y2="${y(decade)}" stroke="#ddd"/>`,
      `<text x="${margin.left - 8}" y="${y(decade) + 4}" font-size="11" text-anchor="end">${decade >= 1 ? decade : decade.toFixed(1)} ms</text>`,
    );
  }
  for (const size of scale.sizes) {
    parts.push(
      `<line x1="${x(size)}" x2="${x(size)}" y1="${margin.top}" y2="${margin.top + plotH}" stroke="#eee"/>`,
      `<text x="${x(size)}" y="${margin.top + plotH + 18}" font-size="11" text-anchor="middle">${sizeLabel(size)}</text>`,
    );
  }
  parts.push(
    `<rect x="${margin.left}" y="${margin.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#888"/>`,
    `<text x="${margin.left + plotW / 2}" y="${height - 12}" font-size="12" text-anchor="middle">spaces owned (log scale)</text>`,
  );
  operations.forEach((operation, index) => {
    const color = COLORS[index % COLORS.length] as string;
    const points = scale.measures.filter((m) => m.operation === operation).sort((a, b) => a.size - b.size);
    const path = points.map(
      (m, i) => `${i === 0 ? 'M' : 'L'}${x(m.size).toFixed(1)},${y(m.latencyMs.median).toFixed(1)}`,
    );
    parts.push(`<path d="${path.join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`);
    for (const m of points) {
      const cx = x(m.size) + (index - operations.length / 2) * 4;
      parts.push(
        `<line x1="${cx}" x2="${cx}" y1="${y(m.latencyMs.min)}" y2="${y(m.latencyMs.max)}" stroke="${color}" stroke-width="1.5" opacity="0.6"/>`,
        `<circle cx="${x(m.size)}" cy="${y(m.latencyMs.median)}" r="4" fill="${color}"><title>${xmlText(operation)} at ${m.size}: ${ms(m.latencyMs.median)} ms, ${m.itemsRead} items read</title></circle>`,
      );
    }
    const ly = margin.top + 14 + index * 22;
    parts.push(
      `<line x1="${width - margin.right + 16}" x2="${width - margin.right + 40}" y1="${ly - 4}" y2="${ly - 4}" stroke="${color}" stroke-width="3"/>`,
      `<text x="${width - margin.right + 46}" y="${ly}" font-size="12">${xmlText(operation)}</text>`,
    );
  });
  return svg('List latency vs collection size', width, height, parts);
}

/** Each function's minified size, split into dependencies and our own code, against the budget. */
export function bundleChart(bundles: BundleSection): string {
  const rowH = 24;
  const margin = { left: 120, right: 40, top: 44, bottom: 40 };
  const width = 760;
  const height = margin.top + margin.bottom + rowH * bundles.functions.length;
  const plotW = width - margin.left - margin.right;
  const max = Math.max(
    bundles.sizeBudgetBytes * 1.1,
    ...bundles.functions.map((f) => Math.max(f.bytes, budgetOf(bundles, f))),
  );
  const x = (bytes: number) => margin.left + (bytes / max) * plotW;
  const parts: string[] = [
    `<text x="${margin.left}" y="22" font-size="15" font-weight="bold">Minified bundle size per function (KB)</text>`,
  ];
  bundles.functions.forEach((fn, index) => {
    const top = margin.top + index * rowH;
    const deps = fn.bytes - fn.ownBytes;
    parts.push(
      `<text x="${margin.left - 8}" y="${top + 15}" font-size="11" text-anchor="end">${xmlText(fn.name)}</text>`,
      `<rect x="${margin.left}" y="${top + 3}" width="${x(deps) - margin.left}" height="${rowH - 8}" fill="#9ecae1"><title>dependencies ${kb(deps)} KB</title></rect>`,
      `<rect x="${x(deps)}" y="${top + 3}" width="${x(fn.bytes) - x(deps)}" height="${rowH - 8}" fill="#e6550d"><title>our code ${kb(fn.ownBytes)} KB</title></rect>`,
      `<text x="${x(fn.bytes) + 4}" y="${top + 15}" font-size="10">${kb(fn.bytes)}</text>`,
    );
    // A function with a budget of its own gets its own mark, on its row.
    const own = budgetOf(bundles, fn);
    if (own !== bundles.sizeBudgetBytes) {
      parts.push(
        `<line x1="${x(own)}" x2="${x(own)}" y1="${top}" y2="${top + rowH - 2}" stroke="#d62728" stroke-width="2"><title>${xmlText(fn.name)} budget ${kb(own)} KB</title></line>`,
      );
    }
  });
  const bx = x(bundles.sizeBudgetBytes);
  const bottom = margin.top + rowH * bundles.functions.length;
  parts.push(
    `<line x1="${bx}" x2="${bx}" y1="${margin.top - 6}" y2="${bottom}" stroke="#d62728" stroke-dasharray="5,3" stroke-width="1.5"/>`,
    `<text x="${bx}" y="${margin.top - 10}" font-size="11" text-anchor="middle" fill="#d62728">budget ${kb(bundles.sizeBudgetBytes)} KB</text>`,
    `<rect x="${margin.left}" y="${bottom + 14}" width="12" height="10" fill="#9ecae1"/>`,
    `<text x="${margin.left + 16}" y="${bottom + 23}" font-size="11">dependencies (AWS SDK, middy, valibot)</text>`,
    `<rect x="${margin.left + 260}" y="${bottom + 14}" width="12" height="10" fill="#e6550d"/>`,
    `<text x="${margin.left + 276}" y="${bottom + 23}" font-size="11">our code (functions/, lib/)</text>`,
  );
  return svg('Minified bundle size per function', width, height, parts);
}

/** A round upper bound for a linear axis: 1, 2, 2.5 or 5 times a power of ten, at least `value`. */
function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const decade = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * decade >= value) ?? 10;
  return step * decade;
}

/**
 * Two panels over 1, 5 and 20 writers, each with a bar for writers on one owner and one for writers on their
 * own owners: commits per second per owner against the per-key WAF limit, and the 503 rate against its target.
 */
export function contentionChart(contention: ContentionSection): string {
  const width = 760;
  const height = 400;
  const top = 62;
  const bottom = 300;
  const writers = [...new Set(contention.runs.map((run) => run.writers))].sort((a, b) => a - b);
  const series = [
    { shape: 'one owner', label: 'all writers on one owner', color: COLORS[0] as string },
    { shape: 'own owners', label: 'each writer on its own owner', color: COLORS[2] as string },
  ] as const;
  const runOf = (shape: string, count: number) =>
    contention.runs.find((run) => run.shape === shape && run.writers === count);
  const panels = [
    {
      title: 'Commits/s per owner',
      value: (run: ContentionRun) => run.commitsPerSecondPerOwner,
      digits: 1,
      line: { at: contention.waf.perKeyPerSecond, label: `per-key WAF limit ${contention.waf.perKeyPerSecond}/s` },
    },
    {
      title: '503 rate (% of writes)',
      value: (run: ContentionRun) => run.rate503,
      digits: 1,
      line: { at: contention.target.maxRate503, label: `target ≤ ${contention.target.maxRate503} %` },
    },
  ];
  const parts: string[] = [
    `<text x="${width / 2}" y="22" font-size="15" font-weight="bold" text-anchor="middle">Concurrent writers through the DynamoDB-faithful harness (${contention.secondsPerRun} s each)</text>`,
  ];
  const panelW = 290;
  panels.forEach((panel, index) => {
    const left = 70 + index * (panelW + 90);
    const values = contention.runs.map(panel.value);
    const max = niceCeiling(Math.max(panel.line.at * 1.2, ...values));
    const y = (value: number) => bottom - (value / max) * (bottom - top);
    parts.push(
      `<text x="${left + panelW / 2}" y="${top - 14}" font-size="13" font-weight="bold" text-anchor="middle">${xmlText(panel.title)}</text>`,
    );
    for (let tick = 0; tick <= 4; tick++) {
      const value = (max * tick) / 4;
      parts.push(
        `<line x1="${left}" x2="${left + panelW}" y1="${y(value)}" y2="${y(value)}" stroke="#ddd"/>`,
        `<text x="${left - 8}" y="${y(value) + 4}" font-size="11" text-anchor="end">${Number(value.toFixed(2))}</text>`,
      );
    }
    const groupW = panelW / writers.length;
    const barW = Math.min(36, (groupW - 20) / series.length);
    writers.forEach((count, group) => {
      const center = left + groupW * (group + 0.5);
      parts.push(
        `<text x="${center}" y="${bottom + 18}" font-size="11" text-anchor="middle">${plural(count, 'writer')}</text>`,
      );
      series.forEach((entry, at) => {
        const run = runOf(entry.shape, count);
        if (!run) return;
        const value = panel.value(run);
        const x = center + (at - series.length / 2) * barW;
        parts.push(
          `<rect x="${x.toFixed(1)}" y="${y(value).toFixed(1)}" width="${barW - 2}" height="${(bottom - y(value)).toFixed(1)}" fill="${entry.color}"><title>${xmlText(`${plural(count, 'writer')}, ${entry.label}: ${ms(value, panel.digits)}`)}</title></rect>`,
          `<text x="${(x + (barW - 2) / 2).toFixed(1)}" y="${(y(value) - 4).toFixed(1)}" font-size="10" text-anchor="middle">${ms(value, panel.digits)}</text>`,
        );
      });
    });
    const ly = y(panel.line.at);
    // The line's label goes under the axis, where no bar's value can cover it.
    parts.push(
      `<line x1="${left}" x2="${left + panelW}" y1="${ly}" y2="${ly}" stroke="#d62728" stroke-dasharray="5,3" stroke-width="1.5"/>`,
      `<rect x="${left}" y="${top}" width="${panelW}" height="${bottom - top}" fill="none" stroke="#888"/>`,
      `<line x1="${left}" x2="${left + 24}" y1="${bottom + 37}" y2="${bottom + 37}" stroke="#d62728" stroke-dasharray="5,3" stroke-width="1.5"/>`,
      `<text x="${left + 30}" y="${bottom + 41}" font-size="11" fill="#d62728">${xmlText(panel.line.label)}</text>`,
    );
  });
  series.forEach((entry, index) => {
    const x = 70 + index * 220;
    parts.push(
      `<rect x="${x}" y="${bottom + 56}" width="12" height="10" fill="${entry.color}"/>`,
      `<text x="${x + 16}" y="${bottom + 65}" font-size="11">${xmlText(entry.label)}</text>`,
    );
  });
  parts.push(
    `<text x="${width / 2}" y="${height - 8}" font-size="11" text-anchor="middle" fill="#555">one run per configuration; every writer a client of its own, as a separate Lambda process is</text>`,
  );
  return svg('Concurrent writers: commits per owner and 503 rate', width, height, parts);
}

function svg(title: string, width: number, height: number, parts: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" role="img">`,
    `<title>${xmlText(title)}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    ...parts,
    '</svg>',
    '',
  ].join('\n');
}
