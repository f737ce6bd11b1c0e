/**
 * The byte-array comparison every test file gets (test/setup/byte-equality.ts) gives the verdicts
 * Vitest's own comparison gives: equal bytes pass, a byte or a length apart fails, also inside
 * objects and arrays, and with toStrictEqual.
 */
import { describe, expect, it } from 'vitest';

const bytes = (size: number, at = -1): Buffer => {
  const out = Buffer.alloc(size, 7);
  if (at >= 0) out[at] = 8;
  return out;
};

describe('toEqual on byte arrays', () => {
  it('passes for the same bytes, as Buffers and as Uint8Arrays, alone and inside objects', () => {
    expect(bytes(100_000)).toEqual(bytes(100_000));
    expect(bytes(100_000)).toStrictEqual(bytes(100_000));
    expect(new Uint8Array(bytes(1000))).toEqual(new Uint8Array(bytes(1000)));
    expect({ file: 'a', body: [bytes(1000)] }).toEqual({ file: 'a', body: [bytes(1000)] });
    expect(Buffer.alloc(0)).toEqual(Buffer.alloc(0));
  });

  it('fails for one byte apart, first, in the middle or last, and for another length', () => {
    for (const at of [0, 50_000, 99_999]) {
      expect(bytes(100_000, at)).not.toEqual(bytes(100_000));
      expect(bytes(100_000)).not.toStrictEqual(bytes(100_000, at));
      expect({ body: [bytes(100_000, at)] }).not.toEqual({ body: [bytes(100_000)] });
    }
    expect(bytes(100_000)).not.toEqual(bytes(99_999));
    expect(bytes(1)).not.toEqual(Buffer.alloc(0));
  });

  it('leaves arrays of different kinds to Vitest: a Buffer is not strictly a Uint8Array', () => {
    expect(bytes(10)).not.toStrictEqual(new Uint8Array(bytes(10)));
  });
});
