// The library's items by id and newest first at once: the order is kept as items change (a change that
// keeps the date keeps the place) instead of sorting all of them again for each State, which cost more than
// the rest of a rename at 5,000 items.
import type { ContentRecord } from './content-item.js';

export class NewestFirstRecords {
  private readonly byId = new Map<string, ContentRecord>();
  /** Undefined until asked for after a bulk change (`replaceAll`): sorted once then. */
  private ordered: ContentRecord[] | undefined = [];
  /** `ordered` was handed out by `list`: the next change copies it, so a list once returned never changes. */
  private shared = false;

  get size(): number {
    return this.byId.size;
  }

  get(id: string): ContentRecord | undefined {
    return this.byId.get(id);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  values(): IterableIterator<ContentRecord> {
    return this.byId.values();
  }

  /** Every item, newest first (items of the same date in the order they came); the same array until the next change. */
  list(): readonly ContentRecord[] {
    this.ordered ??= [...this.byId.values()].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    this.shared = true;
    return this.ordered;
  }

  /** Adds an item or replaces the one with its id. */
  set(record: ContentRecord): void {
    const previous = this.byId.get(record.id);
    this.byId.set(record.id, record);
    const ordered = this.writableOrder();
    if (!ordered) return;
    if (previous) {
      const place = placeOf(ordered, previous);
      if (previous.createdAt.getTime() === record.createdAt.getTime()) {
        ordered[place] = record;
        return;
      }
      ordered.splice(place, 1);
    }
    ordered.splice(firstOlder(ordered, record.createdAt.getTime()), 0, record);
  }

  /** Removes the items with these ids, in one pass over the order however many (a drive's worth of videos gone). */
  delete(ids: readonly string[]): void {
    const removed = new Set<ContentRecord>();
    for (const id of ids) {
      const record = this.byId.get(id);
      if (!record) continue;
      this.byId.delete(id);
      removed.add(record);
    }
    if (removed.size === 0 || !this.ordered) return;
    this.ordered = this.ordered.filter((record) => !removed.has(record));
    this.shared = false;
  }

  /** All items at once (a load): sorted when next listed. */
  replaceAll(records: Iterable<ContentRecord>): void {
    this.byId.clear();
    for (const record of records) this.byId.set(record.id, record);
    this.ordered = undefined;
  }

  private writableOrder(): ContentRecord[] | undefined {
    if (this.ordered && this.shared) {
      this.ordered = [...this.ordered];
      this.shared = false;
    }
    return this.ordered;
  }
}

/** Where `record` is in `ordered` (newest first): found by its date, then among the items of that date. */
function placeOf(ordered: readonly ContentRecord[], record: ContentRecord): number {
  for (let place = firstOlder(ordered, record.createdAt.getTime(), true); place < ordered.length; place++) {
    if (ordered[place] === record) return place;
  }
  return -1;
}

/** The first place in `ordered` (newest first) holding an item older than `time`, or as old with `orSame`. */
function firstOlder(ordered: readonly ContentRecord[], time: number, orSame = false): number {
  let [low, high] = [0, ordered.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    const other = ordered[middle]!.createdAt.getTime();
    if (other > time || (other === time && !orSame)) low = middle + 1;
    else high = middle;
  }
  return low;
}
