/**
 * A seed that changes from run to run, printed so that a failure can be replayed: a safety test
 * that always draws the same inputs only ever proves those inputs safe. `NAME=n` replays seed n.
 */
import { randomInt } from 'node:crypto';
import { Rng } from './rng.js';

export function runSeed(variable: string): number {
  const given = process.env[variable];
  const seed = given !== undefined && given !== '' ? Number(given) : randomInt(2 ** 31);
  if (!Number.isSafeInteger(seed)) throw new Error(`${variable} must be a whole number, got "${given ?? ''}"`);
  console.log(`${variable}=${seed} (set it to replay this run)`);
  return seed;
}

/** A random stream for a test, seeded afresh each run unless `variable` is set. */
export const runRng = (variable: string, stream = ''): Rng => new Rng(runSeed(variable), stream);
