/**
 * Records the DynamoDB calls made through a client, with SDK middleware: used by the benchmarks (timings,
 * round trips) and the tests (which operations each route issues).
 */
import type { FinalizeHandlerArguments, InitializeHandlerArguments, MiddlewareStack } from '@smithy/types';
import type { TableAction } from '#lib/routes.ts';
import { invocation } from './lambda.ts';

/**
 * Capacity units a call costs on DynamoDB (on demand: request units), by its pricing rules: a strongly
 * consistent read 1 per 4 KB read (at least 1), a write 1 per KB written (at least 1), a transaction twice
 * that for each of its items. Sizes come from the items the request or the answer carries; an item neither
 * carries (an update's or a delete's, a transaction's Update, Delete or ConditionCheck) counts as under 1 KB,
 * which holds for this service's items (counters, sequences, name guards, spaces and domains). DynamoDB
 * Local's own ConsumedCapacity is not used: it reports 2 for a whole transaction of small items, whatever
 * their number.
 */
export type Capacity = { read: number; write: number };

const KB = 1024;
const units = (bytes: number, per: number) => Math.max(1, Math.ceil(bytes / per));

/** An item's size as DynamoDB counts it (names and values, in bytes), near enough to round to KB units. */
export function itemSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'number') return Math.ceil(String(Math.abs(value)).replace('.', '').length / 2) + 1;
  if (typeof value === 'string') return Buffer.byteLength(value);
  if (value instanceof Uint8Array) return value.length;
  if (Array.isArray(value)) return 3 + value.reduce((sum: number, entry) => sum + 1 + itemSize(entry), 0);
  return Object.entries(value as Record<string, unknown>).reduce(
    (sum, [name, entry]) => sum + Buffer.byteLength(name) + itemSize(entry),
    0,
  );
}

type Items = { Item?: unknown; Items?: unknown[] };

function capacityOf(command: string, input: unknown, output: unknown): Capacity {
  const { Item, Items } = (output ?? {}) as Items;
  switch (command) {
    case 'GetItemCommand':
      return { read: units(Item ? itemSize(Item) : 0, 4 * KB), write: 0 };
    case 'QueryCommand':
      return {
        read: units(
          (Items ?? []).reduce((sum: number, item) => sum + itemSize(item), 0),
          4 * KB,
        ),
        write: 0,
      };
    case 'PutItemCommand':
      return { read: 0, write: units(itemSize((input as Items).Item), KB) };
    case 'UpdateItemCommand':
    case 'DeleteItemCommand':
      return { read: 0, write: 1 };
    case 'TransactWriteItemsCommand': {
      const entries = (input as { TransactItems?: Record<string, Items>[] }).TransactItems ?? [];
      const write = entries.reduce((sum, entry) => sum + 2 * (entry.Put ? units(itemSize(entry.Put.Item), KB) : 1), 0);
      return { read: 0, write };
    }
    default:
      return { read: 0, write: 0 };
  }
}

export type DynamoCall = { command: string; start: number; end: number; scannedCount?: number; capacity?: Capacity };

/**
 * Records the DynamoDB calls made through a client: each call's command and timing, the wall time during
 * which at least one call was in flight (whole SDK call, and the HTTP exchange alone), and the number of
 * sequential round trips (a call that starts while another is in flight shares its round trip).
 */
export class DynamoRecorder {
  /** With `capacity`, the capacity units of every call are counted (`capacityOf`). */
  constructor(private readonly options: { capacity?: boolean } = {}) {}

  calls: DynamoCall[] = [];
  rounds = 0;
  /** Wall time inside `send` (SDK work plus the HTTP exchange), parallel calls counted once. */
  sdkMs = 0;
  /** Wall time of the HTTP exchanges alone. */
  httpMs = 0;
  private sdkActive = 0;
  private sdkSince = 0;
  private httpActive = 0;
  private httpSince = 0;

  reset(): void {
    this.calls = [];
    this.rounds = 0;
    this.sdkMs = 0;
    this.httpMs = 0;
  }

  commands(): string[] {
    return this.calls
      .slice()
      .sort((a, b) => a.start - b.start)
      .map((call) => call.command.replace(/Command$/, ''));
  }

  scanned(): number {
    return this.calls.reduce((sum, call) => sum + (call.scannedCount ?? 0), 0);
  }

  /** Capacity units consumed by the calls since the last reset (with `capacity`). */
  capacity(): Capacity {
    return this.calls.reduce(
      (sum, call) => ({ read: sum.read + (call.capacity?.read ?? 0), write: sum.write + (call.capacity?.write ?? 0) }),
      { read: 0, write: 0 },
    );
  }

  /** Adds the middleware to a client's stack; returns the function that removes it. */
  attach(stack: MiddlewareStack<object, object>): () => void {
    const outer = 'benchRecorderOuter';
    const inner = 'benchRecorderInner';
    stack.add(
      (next, context) => async (args: InitializeHandlerArguments<object>) => {
        const call: DynamoCall = { command: String(context.commandName), start: performance.now(), end: 0 };
        if (this.sdkActive++ === 0) {
          this.sdkSince = call.start;
          this.rounds++;
        }
        try {
          const result = await next(args);
          const output = result.output as { ScannedCount?: number };
          if (output.ScannedCount !== undefined) call.scannedCount = output.ScannedCount;
          if (this.options.capacity) call.capacity = capacityOf(call.command, args.input, output);
          return result;
        } finally {
          call.end = performance.now();
          if (--this.sdkActive === 0) this.sdkMs += call.end - this.sdkSince;
          this.calls.push(call);
        }
      },
      { step: 'initialize', priority: 'high', name: outer },
    );
    // Last in the deserialize step: right around the HTTP request itself.
    stack.add(
      (next) => async (args: FinalizeHandlerArguments<object>) => {
        const start = performance.now();
        if (this.httpActive++ === 0) this.httpSince = start;
        try {
          return await next(args);
        } finally {
          if (--this.httpActive === 0) this.httpMs += performance.now() - this.httpSince;
        }
      },
      { step: 'deserialize', priority: 'low', name: inner },
    );
    return () => {
      stack.remove(outer);
      stack.remove(inner);
    };
  }
}

/** The IAM action each DynamoDB operation needs; a transaction needs the action of each of its items. */
const transactItemActions: Record<string, TableAction> = {
  Put: 'PutItem',
  Update: 'UpdateItem',
  Delete: 'DeleteItem',
  ConditionCheck: 'ConditionCheckItem',
};

/** What one call needs, from its operation and input (`TransactWriteItems` by the kinds of its items). */
export function actionsOfCall(operation: string, input: unknown): string[] {
  if (operation !== 'TransactWriteItems') return [operation];
  const items = ((input as { TransactItems?: Record<string, unknown>[] }).TransactItems ?? []).flatMap(Object.keys);
  return items.map((kind) => transactItemActions[kind] ?? `TransactWriteItems.${kind}`);
}

/**
 * Records, per function, the IAM actions its DynamoDB calls need, while the local gateway runs it (calls made
 * outside an invocation, such as a test's own set-up, are not attributed). Compared with the route table's
 * declared `actions`, a missing grant fails a test here instead of answering AccessDenied on AWS.
 */
let actionRecorders = 0;

export class ActionRecorder {
  readonly actions = new Map<string, Set<string>>();

  attach(stack: MiddlewareStack<object, object>): () => void {
    const name = `tableActionRecorder${++actionRecorders}`;
    stack.add(
      (next, context) => async (args: InitializeHandlerArguments<object>) => {
        const functionName = invocation.getStore()?.functionName;
        if (functionName !== undefined) {
          const operation = String(context.commandName).replace(/Command$/, '');
          const seen = this.actions.get(functionName) ?? new Set<string>();
          for (const action of actionsOfCall(operation, args.input)) seen.add(action);
          this.actions.set(functionName, seen);
        }
        return next(args);
      },
      { step: 'initialize', priority: 'high', name },
    );
    return () => void stack.remove(name);
  }

  /** Actions a function issued that its grant does not cover. */
  beyond(functionName: string, granted: readonly string[]): string[] {
    return [...(this.actions.get(functionName) ?? [])].filter((action) => !granted.includes(action)).sort();
  }
}
