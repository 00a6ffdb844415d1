// A reproducible source of randomness for generated test input: the same seed gives the same run,
// so a failure found by a fuzz suite can be replayed by its printed seed.

/** Mulberry32: small, fast and good enough to vary test input (not for anything secret). */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A seed from `KEYFRAME_FUZZ_SEED` when set (to replay a failure), else a fresh one. */
  static seedFromEnvironment(variables: NodeJS.ProcessEnv = process.env): number {
    const given = Number(variables.KEYFRAME_FUZZ_SEED);
    return Number.isInteger(given) && given > 0 ? given : Math.floor(Math.random() * 2 ** 31) + 1;
  }

  /** In [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max]. */
  integer(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(values: readonly T[]): T {
    if (values.length === 0) throw new Error('pick from an empty list');
    return values[this.integer(0, values.length - 1)]!;
  }

  /** An entry chosen with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
    let left = this.next() * total;
    for (const [value, weight] of entries) {
      left -= weight;
      if (left < 0) return value;
    }
    return entries.at(-1)![0];
  }

  bytes(length: number): Buffer {
    const buffer = Buffer.alloc(length);
    for (let index = 0; index < length; index++) buffer[index] = this.integer(0, 255);
    return buffer;
  }

  /** `length` characters drawn from `alphabet` (code points, so astral characters stay whole). */
  text(length: number, alphabet: string): string {
    const characters = [...alphabet];
    let result = '';
    for (let index = 0; index < length; index++) result += this.pick(characters);
    return result;
  }
}
