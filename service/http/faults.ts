import type { FaultOptions } from '../config.js';

/** mulberry32: a tiny seeded PRNG, so a fault run can be replayed exactly. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface FaultInjector {
  readonly options: FaultOptions;
  /** Whether the next event of this kind fails. */
  roll(kind: 'error5xx' | 'drop' | 'truncate'): boolean;
  readonly counts: Record<'error5xx' | 'drop' | 'truncate', number>;
}

export function createFaultInjector(options: FaultOptions): FaultInjector {
  const random = seeded(options.seed);
  const counts = { error5xx: 0, drop: 0, truncate: 0 };
  return {
    options,
    counts,
    roll(kind) {
      const hit = options[kind] > 0 && random() < options[kind];
      if (hit) counts[kind] += 1;
      return hit;
    },
  };
}
