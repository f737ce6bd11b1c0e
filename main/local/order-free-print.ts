/**
 * A print of a set of entries that does not depend on the order they are added in: each entry
 * is hashed field by field (`text`, `number`), then added (`add`) to a sum and a xor in two
 * lanes (FNV-1a, and the same with another seed and multiplier, in one pass). The fields are
 * hashed where they are, each ended by its length: building a string per entry to hash cost
 * more than the hashing (2 s at a million files).
 */
export class OrderFreePrint {
  sumA = 0;
  sumB = 0;
  xorA = 0;
  xorB = 0;
  private a = 0x811c9dc5;
  private b = 0x050c5d1f;

  /**
   * The text (from `start` to `end`) two UTF-16 units at a time (a multiplication by an odd
   * number keeps every difference), then its length, which ends it unambiguously.
   */
  text(value: string, start = 0, end = value.length): void {
    let { a, b } = this;
    for (let i = start; i < end; i += 2) {
      const c = value.charCodeAt(i) | (i + 1 < end ? value.charCodeAt(i + 1) << 16 : 0);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
    }
    this.a = a;
    this.b = b;
    this.unit(end - start);
  }

  /** An integer (sizes, inodes: below 2^53) as two 32-bit units. */
  number(value: number): void {
    this.unit(value | 0);
    this.unit(Math.floor(value / 0x1_0000_0000) | 0);
  }

  /** 32-bit words `start` to `end` of `words`: a field of fixed width, so nothing ends it. */
  words(words: Uint32Array, start: number, end: number): void {
    for (let i = start; i < end; i++) this.unit(words[i] as number);
  }

  add(): void {
    this.sumA = (this.sumA + (this.a >>> 0)) >>> 0;
    this.sumB = (this.sumB + (this.b >>> 0)) >>> 0;
    this.xorA = (this.xorA ^ this.a) >>> 0;
    this.xorB = (this.xorB ^ this.b) >>> 0;
    this.a = 0x811c9dc5;
    this.b = 0x050c5d1f;
  }

  /** The sums and xors, after `counts` (which tell apart sets that sum alike). */
  result(...counts: number[]): string {
    return `${counts.join('/')}/${this.sumA}/${this.sumB}/${this.xorA}/${this.xorB}`;
  }

  private unit(c: number): void {
    this.a = Math.imul(this.a ^ c, 0x01000193);
    this.b = Math.imul(this.b ^ c, 0x5bd1e995);
  }
}
