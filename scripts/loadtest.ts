/**
 * `npm run loadtest`: a bounded mixed workload against a local stack this script starts itself
 * (in-memory DynamoDB Local and the local gateway in a child process, both on 127.0.0.1, free ports).
 *
 * Twenty owners, one worker each, run list / show / store / update / delete on spaces and domains until
 * a request count OR a time limit is reached. Each worker keeps a model of its owner's data, so the exact
 * status of every request is known in advance: any other status is counted as unexpected (must be 0).
 * At the end every owner's list is compared with the model and the consistency checker
 * (`test/support/consistency.ts`) runs on every owner (must be clean). The figures are printed and written into
 * `docs/reliability.md` between the load-test markers.
 *
 * Options: --requests N (default 5000), --duration SECONDS (default 60), --owners N (default 20),
 * --no-write (print only). Exit code 1 when a request was unexpected or the data is inconsistent.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { commandLine, helpOption } from '#infra/command-line.ts';
import { ensureTable, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';
import { startGateway } from '#infra/local/gateway.ts';
import { LOCAL_EDGE_HOSTNAME } from '#infra/local/settings.ts';
import { createApiKey } from '#lib/auth/data/key-admin.ts';
import { createDb } from '#lib/data/dynamodb.ts';
import { loadConfig } from '#lib/platform/config.ts';
import { checkConsistency, formatViolations } from '#test/support/consistency.ts';

const root = join(import.meta.dirname, '..');
const REPORT_FILE = join(root, 'docs', 'reliability.md');
const BEGIN = '<!-- loadtest:begin -->';
const END = '<!-- loadtest:end -->';

// ---- Child process: the local gateway ------------------------------------------------------------------

async function serve(): Promise<void> {
  const gateway = await startGateway({
    config: loadConfig(process.env),
    port: 0,
    host: '127.0.0.1',
    logRequests: false,
    authCacheTtlSeconds: 60,
  });
  console.log(`READY ${gateway.url}`);
  const stop = () => void gateway.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

function startGatewayProcess(env: NodeJS.ProcessEnv): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts', 'loadtest.ts'), '--serve'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith('READY ')) resolve({ url: line.slice('READY '.length), child });
    });
    child.once('exit', (code) => reject(new Error(`The gateway process exited with code ${code}`)));
  });
}

// ---- The workload --------------------------------------------------------------------------------------

type Kind = 'spaces' | 'domains';
type Operation = 'list' | 'show' | 'show-deleted' | 'store' | 'update' | 'delete';
/** The parts of the API's answers the workers read (a resource or a page of them). */
type Resource = { id: number; name: string };
type ApiBody = { data: Resource & Resource[]; meta: { total: number }; links: { next: string | null } };

type Sample = { operation: Operation; kind: Kind; status: number; expected: number; ms: number; detail?: string };

/** What one owner holds, as the worker believes it: every answer is checked against it. */
type Model = { live: Record<Kind, Map<number, string>>; deleted: Record<Kind, number[]> };

const runId = randomUUID().slice(0, 8);
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)] as T;
const randomId = (ids: Map<number, string>) => pick([...ids.keys()]);

class Owner {
  readonly model: Model = { live: { spaces: new Map(), domains: new Map() }, deleted: { spaces: [], domains: [] } };
  readonly domainNames: string[] = [];
  private stored = 0;

  constructor(
    readonly index: number,
    readonly id: string,
    private readonly key: string,
    private readonly url: string,
  ) {}

  private async call(method: string, path: string, form?: Record<string, string>) {
    const started = performance.now();
    try {
      const response = await fetch(`${this.url}${path}`, {
        method,
        headers: {
          Accept: 'application/json',
          Authorization: `Bearer ${this.key}`,
          ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
        },
        body: form ? new URLSearchParams(form).toString() : undefined,
      });
      const text = await response.text();
      const ms = performance.now() - started;
      // A body that is not JSON makes the status negative (or 0 when there was no answer): never expected,
      // so the body of such an answer is never read.
      let body = {} as ApiBody;
      let parsed = false;
      try {
        body = JSON.parse(text) as ApiBody;
        parsed = true;
      } catch {
        // Not JSON: reported through the status below.
      }
      const json = response.headers.get('content-type') === 'application/json' && parsed;
      return { status: json ? response.status : -response.status, body, ms, text };
    } catch (error) {
      return { status: 0, body: {} as ApiBody, ms: performance.now() - started, text: String(error) };
    }
  }

  private newName(kind: Kind): string {
    this.stored++;
    if (kind === 'spaces') return `Load ${this.stored} ${pick(['alpha', 'Beta', 'gamma', 'Delta'])}`;
    const name = `o${this.index}-${this.stored}-${runId}.load.example.com`;
    this.domainNames.push(name);
    return name;
  }

  /** One request of the mix; returns what happened against what the model expected. */
  async step(): Promise<Sample> {
    const kind: Kind = Math.random() < 0.5 ? 'spaces' : 'domains';
    const live = this.model.live[kind];
    const roll = Math.random();
    let operation: Operation =
      roll < 0.35
        ? 'list'
        : roll < 0.57
          ? 'show'
          : roll < 0.6
            ? 'show-deleted'
            : roll < 0.75
              ? 'store'
              : roll < 0.9
                ? 'update'
                : 'delete';
    if (live.size === 0 && (operation === 'show' || operation === 'update' || operation === 'delete'))
      operation = 'store';
    if (operation === 'show-deleted' && this.model.deleted[kind].length === 0) operation = 'list';
    return this.run(operation, kind);
  }

  async run(operation: Operation, kind: Kind): Promise<Sample> {
    const live = this.model.live[kind];
    const base = `/api/v1/${kind}`;
    const sample = (status: number, expected: number, ms: number, detail?: string): Sample => ({
      operation,
      kind,
      status,
      expected,
      ms,
      ...(status === expected ? {} : { detail }),
    });
    switch (operation) {
      case 'list': {
        const query = new URLSearchParams({
          sort_by: pick(['id', 'name']),
          sort: pick(['asc', 'desc']),
          per_page: pick(['10', '25']),
          ...(Math.random() < 0.2 ? { search: pick(['load', 'alpha', '1', 'example']) } : {}),
          ...(Math.random() < 0.2 ? { page: '2' } : {}),
        });
        const reply = await this.call('GET', `${base}?${query}`);
        const search = query.get('search');
        const ok = reply.status === 200 && (search !== null || reply.body.meta.total === live.size);
        return sample(
          ok ? 200 : reply.status || -1,
          200,
          reply.ms,
          `total ${reply.body.meta?.total} ≠ ${live.size}: ${reply.text.slice(0, 200)}`,
        );
      }
      case 'show': {
        const id = randomId(live);
        const reply = await this.call('GET', `${base}/${id}`);
        const ok = reply.status === 200 && reply.body.data.name === live.get(id);
        return sample(ok ? 200 : reply.status || -1, 200, reply.ms, reply.text.slice(0, 200));
      }
      case 'show-deleted': {
        const reply = await this.call('GET', `${base}/${pick(this.model.deleted[kind])}`);
        return sample(reply.status, 404, reply.ms, reply.text.slice(0, 200));
      }
      case 'store': {
        const name = this.newName(kind);
        const form: Record<string, string> =
          kind === 'spaces' ? { name, color: String(1 + Math.floor(Math.random() * 6)) } : { name };
        const reply = await this.call('POST', base, form);
        if (reply.status === 201) live.set(reply.body.data.id, reply.body.data.name);
        return sample(reply.status, 201, reply.ms, reply.text.slice(0, 200));
      }
      case 'update': {
        const id = randomId(live);
        const rename = kind === 'spaces' && Math.random() < 0.5;
        const form: Record<string, string> =
          kind === 'spaces'
            ? { color: String(1 + Math.floor(Math.random() * 6)), ...(rename ? { name: this.newName(kind) } : {}) }
            : { index_page: `https://pages.example.net/${this.stored}`, not_found_page: '' };
        const reply = await this.call(pick(['PUT', 'PATCH']), `${base}/${id}`, form);
        if (reply.status === 200) live.set(id, reply.body.data.name);
        return sample(reply.status, 200, reply.ms, reply.text.slice(0, 200));
      }
      case 'delete': {
        const id = randomId(live);
        const reply = await this.call('DELETE', `${base}/${id}`);
        if (reply.status === 200) {
          live.delete(id);
          this.model.deleted[kind].push(id);
        }
        return sample(reply.status, 200, reply.ms, reply.text.slice(0, 200));
      }
    }
  }

  /** Compares the owner's full lists with the model. */
  async verify(): Promise<string[]> {
    const problems: string[] = [];
    for (const kind of ['spaces', 'domains'] as const) {
      const seen = new Map<number, string>();
      let path: string | null = `/api/v1/${kind}?per_page=100&sort=asc`;
      while (path) {
        const reply = await this.call('GET', path);
        if (reply.status !== 200) {
          problems.push(`${this.id} ${kind}: list answered ${reply.status}`);
          break;
        }
        for (const item of reply.body.data) seen.set(item.id, item.name);
        const next: string | null = reply.body.links.next;
        path = next ? next.slice(next.indexOf('/api/v1')) : null;
      }
      const expected = [...this.model.live[kind]].sort(([a], [b]) => a - b);
      if (JSON.stringify([...seen]) !== JSON.stringify(expected)) {
        problems.push(`${this.id} ${kind}: listed ${seen.size} items, the model holds ${expected.length}`);
      }
    }
    return problems;
  }
}

// ---- Figures -------------------------------------------------------------------------------------------

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number);

function latencyRow(name: string, samples: Sample[]) {
  const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
  const f = (value: number) => value.toFixed(1);
  return `| ${name} | ${samples.length} | ${f(percentile(ms, 50))} | ${f(percentile(ms, 90))} | ${f(percentile(ms, 99))} | ${f(ms.at(-1) ?? 0)} |`;
}

function machine() {
  const cpu = cpus()[0]?.model?.trim() ?? 'unknown CPU';
  return {
    cpus: availableParallelism(),
    cpu,
    memoryGiB: (totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
    load: loadavg()
      .map((value) => value.toFixed(2))
      .join(' '),
  };
}

// ---- Main ----------------------------------------------------------------------------------------------

const USAGE = `Usage: npm run loadtest -- [--requests N] [--duration SECONDS] [--owners N] [--no-write]

A bounded mixed workload (list, show, store, update, delete on spaces and domains) against a local stack the
script starts itself: in-memory DynamoDB Local and the local gateway, on 127.0.0.1, free ports. Every answer,
every owner's lists and the consistency checker are checked; the figures are printed and written into
docs/reliability.md between the load-test markers. Exit code 1 when a request was unexpected or the data is
inconsistent.

Options:
  --requests N         stop after N requests (default 5000)
  --duration SECONDS   or after this many seconds, whichever comes first (default 60)
  --owners N           owners, one worker each (default 20)
  --no-write           print the figures only, do not write docs/reliability.md
  -h, --help           this help`;

/** A positive whole number from the command line, or the usage and exit code 2. */
function positive(name: string, value: string): number | undefined {
  if (/^[1-9]\d*$/.test(value)) return Number(value);
  console.error(`--${name} must be a positive whole number, not "${value}".\n\n${USAGE}`);
  return undefined;
}

async function main(): Promise<number> {
  const parsed = commandLine(USAGE, {
    options: {
      ...helpOption,
      requests: { type: 'string', default: '5000' },
      duration: { type: 'string', default: '60' },
      owners: { type: 'string', default: '20' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  if (!parsed) return Number(process.exitCode ?? 0);
  const { values } = parsed;
  const maxRequests = positive('requests', values.requests);
  const maxSeconds = positive('duration', values.duration);
  const ownerCount = positive('owners', values.owners);
  if (maxRequests === undefined || maxSeconds === undefined || ownerCount === undefined) return 2;
  const host = machine();
  console.log(
    `Load test: up to ${maxRequests} requests or ${maxSeconds} s, ${ownerCount} owners (one worker each), ` +
      `on ${host.cpus} × ${host.cpu}, Node ${host.node}, load average ${host.load}`,
  );

  const dynamo = await startDynamoDbLocal();
  let gateway: ChildProcess | undefined;
  const cleanUp = async () => {
    gateway?.kill('SIGTERM');
    await dynamo.stop();
  };
  process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
  try {
    const env = {
      ...process.env,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      TABLE_NAME: `loadtest-${runId}`,
      CURSOR_SECRET: randomBytes(32).toString('base64url'),
      AWS_REGION: 'local',
      EDGE_HOSTNAME: LOCAL_EDGE_HOSTNAME,
    };
    await ensureTable(dynamo.endpoint, env.TABLE_NAME);
    const db = createDb(loadConfig(env));
    const started = await startGatewayProcess(env);
    gateway = started.child;

    const owners = await Promise.all(
      Array.from({ length: ownerCount }, async (_, index) => {
        const id = `load-${runId}-${index}`;
        const { key } = await createApiKey(db, id, 'load test');
        return new Owner(index, id, key, started.url);
      }),
    );

    // Warm-up (not measured, but checked): each owner stores a few items, every handler is loaded once.
    const warmUp: Sample[] = [];
    await Promise.all(
      owners.map(async (owner) => {
        for (let i = 0; i < 4; i++) warmUp.push(await owner.run('store', i % 2 ? 'domains' : 'spaces'));
        for (const operation of ['list', 'show', 'update'] as const) warmUp.push(await owner.run(operation, 'spaces'));
      }),
    );

    const samples: Sample[] = [];
    const deadline = performance.now() + maxSeconds * 1000;
    const t0 = performance.now();
    let issued = 0;
    await Promise.all(
      owners.map(async (owner) => {
        while (issued < maxRequests && performance.now() < deadline) {
          issued++;
          samples.push(await owner.step());
        }
      }),
    );
    const seconds = (performance.now() - t0) / 1000;

    const unexpected = [...warmUp, ...samples].filter((sample) => sample.status !== sample.expected);
    const modelProblems = (await Promise.all(owners.map((owner) => owner.verify()))).flat();
    const reports = await Promise.all(
      owners.map((owner) => checkConsistency(db, owner.id, { domainNames: owner.domainNames })),
    );
    const violations = reports.flatMap(formatViolations);
    const items = reports.reduce((sum, report) => sum + report.items.space + report.items.domain, 0);

    const statuses = Object.entries(
      samples.reduce<Record<string, number>>((counts, sample) => {
        counts[sample.status] = (counts[sample.status] ?? 0) + 1;
        return counts;
      }, {}),
    )
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ');
    const byOperation = (['list', 'show', 'show-deleted', 'store', 'update', 'delete'] as const).map((operation) =>
      latencyRow(
        operation,
        samples.filter((sample) => sample.operation === operation),
      ),
    );
    const stoppedBy = issued >= maxRequests ? 'request count' : 'time limit';
    const report = [
      `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run loadtest\` (defaults: up to ${maxRequests} requests or ${maxSeconds} s; stopped by the ${stoppedBy}).`,
      '',
      `- Machine: ${host.cpus} CPUs (\`nproc\`), ${host.cpu}, ${host.memoryGiB} GiB RAM, Node ${host.node}; load average at start ${host.load} (the machine is shared, so figures are conservative).`,
      `- Stack: DynamoDB Local (in memory) and the local gateway in its own Node process, on 127.0.0.1; ${ownerCount} owners, one worker each (${ownerCount} requests in flight).`,
      `- Requests: ${samples.length} in ${seconds.toFixed(1)} s = **${(samples.length / seconds).toFixed(0)} requests/s**; statuses ${statuses}.`,
      `- Unexpected statuses: **${unexpected.length}** (warm-up included). Lists equal to each worker's model: ${modelProblems.length === 0 ? 'yes' : `no (${modelProblems.length} differences)`}.`,
      `- Consistency checker on all ${ownerCount} owners (${items} items): **${violations.length} violations**.`,
      '',
      '| operation | requests | p50 ms | p90 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|---:|---:|',
      latencyRow('**all**', samples),
      ...byOperation,
    ].join('\n');

    console.log(`\n${report}\n`);
    for (const sample of unexpected.slice(0, 10)) {
      console.log(
        `unexpected: ${sample.operation} ${sample.kind} → ${sample.status} (expected ${sample.expected}) ${sample.detail ?? ''}`,
      );
    }
    for (const line of [...modelProblems, ...violations].slice(0, 20)) console.log(line);

    if (!values['no-write']) {
      const document = readFileSync(REPORT_FILE, 'utf8');
      const begin = document.indexOf(BEGIN);
      const end = document.indexOf(END);
      if (begin === -1 || end < begin) throw new Error(`${REPORT_FILE} has no ${BEGIN} … ${END} block`);
      writeFileSync(REPORT_FILE, `${document.slice(0, begin + BEGIN.length)}\n${report}\n${document.slice(end)}`);
      // The project formats Markdown with Biome (`npm run lint` checks it): format the new table likewise.
      const biome = join(root, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');
      spawnSync(process.execPath, [biome, 'format', '--write', REPORT_FILE], { cwd: root, stdio: 'ignore' });
      console.log(`Figures written to ${REPORT_FILE}`);
    }
    return unexpected.length === 0 && modelProblems.length === 0 && violations.length === 0 ? 0 : 1;
  } finally {
    await cleanUp();
  }
}

if (process.argv.includes('--serve')) {
  await serve();
} else {
  process.exitCode = await main();
}
