import type { FaultOptions } from '../config.js';
import { seededRandom } from '../../shared/random.js';

export interface FaultInjector {
  readonly options: FaultOptions;
  /** Whether the next event of this kind fails. */
  roll(kind: 'error5xx' | 'drop' | 'truncate'): boolean;
  readonly counts: Record<'error5xx' | 'drop' | 'truncate', number>;
}

export function createFaultInjector(options: FaultOptions): FaultInjector {
  const random = seededRandom(options.seed);
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
