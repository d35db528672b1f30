/**
 * Records the DynamoDB calls made through a client, with SDK middleware: used by the benchmarks (timings,
 * round trips) and the tests (which operations each route issues).
 */
import type { FinalizeHandlerArguments, InitializeHandlerArguments, MiddlewareStack } from '@smithy/types';
import type { TableAction } from '#lib/routes.ts';
import { invocation } from './lambda.ts';

export type DynamoCall = { command: string; start: number; end: number; scannedCount?: number };

/**
 * Records the DynamoDB calls made through a client: each call's command and timing, the wall time during
 * which at least one call was in flight (whole SDK call, and the HTTP exchange alone), and the number of
 * sequential round trips (a call that starts while another is in flight shares its round trip).
 */
export class DynamoRecorder {
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
          const scanned = (result.output as { ScannedCount?: number }).ScannedCount;
          if (scanned !== undefined) call.scannedCount = scanned;
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
