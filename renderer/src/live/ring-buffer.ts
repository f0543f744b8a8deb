// A fixed-capacity columnar ring buffer of numbers, outside React: samples arrive here as fast as
// the sampler produces them, and the chart reads a downsampled copy a few times per second.
// Columns are Float64Arrays (no per-sample objects, no GC churn); a missing value is NaN.

export class RingBuffer<K extends string> {
  readonly capacity: number;
  readonly keys: readonly K[];
  private readonly columns: Record<K, Float64Array>;
  private start = 0;
  private count = 0;
  private pushed = 0;
  private revision = 0;

  constructor(capacity: number, keys: readonly K[]) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
    this.capacity = capacity;
    this.keys = keys;
    this.columns = Object.fromEntries(keys.map((k) => [k, new Float64Array(capacity)])) as Record<K, Float64Array>;
  }

  /** Rows currently held (≤ capacity). */
  get size(): number {
    return this.count;
  }

  /** Rows ever pushed since the last clear(). */
  get totalPushed(): number {
    return this.pushed;
  }

  /** Rows overwritten because the buffer was full. */
  get dropped(): number {
    return this.pushed - this.count;
  }

  /** Changes on every push and clear: readers compare it to skip work when nothing changed. */
  get version(): number {
    return this.revision;
  }

  /** Appends one row; keys missing from `row` (or null) are stored as NaN. Overwrites the oldest row when full. */
  push(row: Partial<Record<K, number | null>>): void {
    const index = (this.start + this.count) % this.capacity;
    for (const key of this.keys) {
      const value = row[key];
      this.columns[key][index] = typeof value === 'number' ? value : NaN;
    }
    if (this.count < this.capacity) this.count += 1;
    else this.start = (this.start + 1) % this.capacity;
    this.pushed += 1;
    this.revision += 1;
  }

  /** Value of `key` in row i, 0 = oldest row held. */
  get(key: K, i: number): number {
    if (i < 0 || i >= this.count) throw new RangeError(`row ${i} is outside 0..${this.count - 1}`);
    return this.columns[key].at((this.start + i) % this.capacity) ?? NaN;
  }

  /** Value of `key` in the newest row, or undefined when empty. */
  last(key: K): number | undefined {
    return this.count === 0 ? undefined : this.get(key, this.count - 1);
  }

  /** A copy of one column, oldest first. */
  column(key: K): Float64Array {
    const source = this.columns[key];
    const out = new Float64Array(this.count);
    const firstPart = Math.min(this.count, this.capacity - this.start);
    out.set(source.subarray(this.start, this.start + firstPart), 0);
    if (firstPart < this.count) out.set(source.subarray(0, this.count - firstPart), firstPart);
    return out;
  }

  clear(): void {
    this.start = 0;
    this.count = 0;
    this.pushed = 0;
    this.revision += 1;
  }
}

/** The columns the memory chart needs from each procfs sample. */
export const MEMORY_KEYS = ['tMs', 'tokens', 'rssBytes', 'rssAnonBytes', 'rssFileBytes'] as const;
export type MemoryKey = (typeof MEMORY_KEYS)[number];
export type MemoryRing = RingBuffer<MemoryKey>;

export function createMemoryRing(capacity: number): MemoryRing {
  return new RingBuffer<MemoryKey>(capacity, MEMORY_KEYS);
}
