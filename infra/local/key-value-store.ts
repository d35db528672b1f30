/**
 * CloudFront KeyValueStore, emulated in memory for the local edge: the function's `get` (which throws for a
 * missing key, as CloudFront's does) and the sync's conditional writes on the store-wide ETag.
 */
import type { KeyValueReader } from '#infra/edge-function.ts';
import type { ListableEdgeStore, StorePage } from '#lib/edge/ports.ts';
import { StoreChanged } from '#lib/edge/ports.ts';

export class LocalKeyValueStore implements ListableEdgeStore, KeyValueReader {
  private readonly values = new Map<string, string>();
  private version = 0;

  private get etag() {
    return `"${this.version}"`;
  }

  async get(key: string, options: { format?: 'string' | 'json' } = {}): Promise<unknown> {
    const value = this.values.get(key);
    if (value === undefined) throw new Error(`The key ${key} was not found`);
    return options.format === 'json' ? JSON.parse(value) : value;
  }

  async read(key: string): Promise<{ value: unknown; etag: string }> {
    const value = this.values.get(key);
    return { value: value === undefined ? null : JSON.parse(value), etag: this.etag };
  }

  async put(key: string, value: unknown, ifMatch: string): Promise<void> {
    if (ifMatch !== this.etag) throw new StoreChanged();
    this.values.set(key, JSON.stringify(value));
    this.version++;
  }

  async remove(key: string, ifMatch: string): Promise<void> {
    if (ifMatch !== this.etag) throw new StoreChanged();
    this.values.delete(key);
    this.version++;
  }

  /** Every key with its value, as CloudFront's ListKeys pages them (the sweep lists the store). */
  async *keys(): AsyncIterable<{ key: string; value: unknown }> {
    for (const [key, value] of [...this.values]) yield { key, value: JSON.parse(value) };
  }

  /** A page of `size` keys in key order after `token` (the last key of the page before), as ListKeys pages them. */
  async page(token?: string, size = 50): Promise<StorePage> {
    const keys = [...this.values.keys()].sort().filter((key) => token === undefined || key > token);
    const items = keys.slice(0, size).map((key) => ({ key, value: JSON.parse(this.values.get(key) ?? 'null') }));
    const last = items.at(-1);
    return keys.length > size && last ? { items, next: last.key } : { items };
  }

  get size(): number {
    return this.values.size;
  }
}
