/**
 * Vitest setup file: `toEqual` and `toStrictEqual` compare two byte arrays of the same kind
 * (Buffer with Buffer, Uint8Array with Uint8Array) with one memory comparison. Vitest's own
 * comparison walks them element by element, about 3 CPU seconds a megabyte, and tests compare
 * whole files. The verdict is the same: equal bytes pass, any other byte or length fails (with
 * Vitest's usual diff); arrays of different kinds are left to Vitest's comparison.
 */
import { expect } from 'vitest';

function sameBytes(a: unknown, b: unknown): boolean | undefined {
  if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.constructor !== b.constructor) return undefined;
  return Buffer.compare(a, b) === 0;
}

expect.addEqualityTesters([sameBytes]);
