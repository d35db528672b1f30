/**
 * Records the DynamoDB calls made through a client, with SDK middleware: used by the benchmarks (timings,
 * round trips) and the tests (which operations each route issues).
 */
import type { FinalizeHandlerArguments, InitializeHandlerArguments, MiddlewareStack } from '@smithy/types';

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
