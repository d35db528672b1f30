/**
 * Per-item visibility of transactions. Real DynamoDB applies a committed transaction item by item: until an item
 * is applied, non-transactional reads (GetItem, BatchGetItem, Query, Scan) still get its older image, and two
 * items of one transaction can become visible in either order. DynamoDB Local shows them all at once.
 *
 * Modelled: from the moment a transaction is forwarded, each item it writes is served as it was; once the target
 * has committed, each item becomes visible at its own time, drawn in [0, maxDelayMs] after the answer. An item's
 * versions become visible in commit order, never an older one after a newer one. Writes see the committed state:
 * a transaction or write the target refuses (a failed condition, say) changes nothing a reader sees, and a
 * single-item write that succeeds makes its item visible at once (it applies on top of everything committed).
 * Not modelled: items applied before the caller has its answer (the clock starts at the answer), any order
 * DynamoDB really applies items in (each time is drawn on its own), and whether DynamoDB would refuse a write to
 * an item it has not applied yet (the harness lets it through, on the committed state).
 */
import type { Item } from './protocol.ts';

/** What a read is served for a hidden item; `before` undefined: no item. */
export type HiddenImage = { id: string; table: string; key: Item; before: Item | undefined };

/** One committed (or pending) state of an item: its image once known, visible from `from` on. */
type Version = { image: Item | undefined; from: number; owner?: number };
type Entry = { id: string; table: string; key: Item; versions: Version[] };

export class Visibility {
  private readonly entries = new Map<string, Entry>();

  /**
   * The transaction `owner` is about to be forwarded. `image` is the item's committed state now: the image of
   * the latest version a reader may not see yet, or the state everyone sees.
   */
  begin(owner: number, items: { id: string; table: string; key: Item; image: Item | undefined }[]): void {
    for (const { id, table, key, image } of items) {
      const entry = this.entries.get(id) ?? { id, table, key, versions: [{ image, from: -Infinity }] };
      const latest = entry.versions.at(-1) as Version;
      latest.image = image;
      entry.versions.push({ image: undefined, from: Number.POSITIVE_INFINITY, owner });
      this.entries.set(id, entry);
    }
  }

  /** The target committed `owner`: each of its items becomes visible at the time `revealAt` draws for it. */
  commit(owner: number, revealAt: () => number): number {
    let last = Date.now();
    for (const entry of this.entries.values()) {
      const at = entry.versions.findIndex((version) => version.owner === owner);
      const version = entry.versions[at];
      if (!version) continue;
      // Never before the version it follows: an item does not go back to an older image.
      version.from = Math.max(revealAt(), entry.versions[at - 1]?.from ?? -Infinity);
      version.owner = undefined;
      last = Math.max(last, version.from);
    }
    return last;
  }

  /** The target refused `owner`: nothing changed. */
  abort(owner: number): void {
    for (const [id, entry] of this.entries) {
      entry.versions = entry.versions.filter((version) => version.owner !== owner);
      if (entry.versions.length === 1) this.entries.delete(id);
    }
  }

  /** A single-item write succeeded on these items: it applied on top of everything committed. */
  reveal(ids: Iterable<string>): void {
    for (const id of ids) this.entries.delete(id);
  }

  /** The image served for this item, when it is not the target's. */
  lookup(id: string, now = Date.now()): HiddenImage | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    const visible = entry.versions.findLastIndex((version) => version.from <= now);
    if (visible === entry.versions.length - 1) {
      this.entries.delete(id);
      return undefined;
    }
    const { table, key, versions } = entry;
    return { id, table, key, before: versions[visible]?.image };
  }

  /** The items of a table served an older image (to put back the ones a hidden transaction deleted). */
  inTable(table: string, now = Date.now()): HiddenImage[] {
    return [...this.entries.keys()].flatMap((id) => {
      const image = this.lookup(id, now);
      return image && image.table === table ? [image] : [];
    });
  }

  clear(): void {
    this.entries.clear();
  }
}
