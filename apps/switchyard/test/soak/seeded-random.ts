import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';

/** A 32-bit seed from any text (FNV-1a), so a seed can be a word someone types back to replay. */
export function seedNumber(seed: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < seed.length; i++) {
    hash ^= seed.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** Draws fixed by a seed string: the same seed gives the same draws, in the same order. */
export class SeededRandom {
  private readonly generator: RandomGenerator;

  constructor(seed: string) {
    this.generator = xoroshiro128plus(seedNumber(seed));
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return unsafeUniformIntDistribution(min, max, this.generator);
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.int(0, 9_999) < Math.round(p * 10_000);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from nothing');
    return items[this.int(0, items.length - 1)]!;
  }

  /** One of the choices, each drawn with a chance proportional to its weight. */
  weighted<T>(choices: ReadonlyArray<readonly [T, number]>): T {
    const total = choices.reduce((sum, [, weight]) => sum + weight, 0);
    let draw = this.int(0, total - 1);
    for (const [choice, weight] of choices) {
      if (draw < weight) return choice;
      draw -= weight;
    }
    throw new Error('weights must be positive integers');
  }
}
