/**
 * A seeded random stream for soak runs: the n-th draw is SHA-256 of (seed, stream, n), so
 * independent streams (kills, local churn, remote churn) do not shift each other when one of
 * them draws more, and a seed printed by a failed run replays the same choices.
 */
import { createHash } from 'node:crypto';

export class Rng {
  private drawn = 0;

  constructor(
    readonly seed: number,
    readonly stream = '',
  ) {}

  /** Another independent stream of the same seed. */
  fork(stream: string): Rng {
    return new Rng(this.seed, this.stream === '' ? stream : `${this.stream}/${stream}`);
  }

  /** Uniform in [0, 1). */
  next(): number {
    const digest = createHash('sha256').update(`${this.seed}\0${this.stream}\0${this.drawn++}`).digest();
    return digest.readUInt32BE(0) / 2 ** 32;
  }

  /** Uniform integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** A key drawn with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let left = this.next() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [key, w] of entries) {
      left -= w;
      if (left < 0) return key;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error('no weights');
    return last[0];
  }
}

/**
 * The seed of a test file's random choices: SEED from the environment to replay a run, else a
 * fresh one each run. Printed, so that a failure can be replayed.
 */
export function testSeed(name: string): number {
  const seed = Number(process.env.SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`${name}: seed ${seed} (SEED=${seed} replays it)`);
  return seed;
}
