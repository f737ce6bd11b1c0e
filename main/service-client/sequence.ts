/**
 * Sequences, as the service gives them. The reference declares a workspace's `sequence` a string
 * and shows a number elsewhere, so the client takes either: a number, or a string of digits, is a
 * position (compared as a number of any size); any other string is an opaque token, which tells
 * only "changed" from "unchanged". Inside the client a sequence is the string the service gave
 * (a number written in decimal), and the changes feed gets it back as it came: a cursor the
 * client never computes with.
 */

/** A sequence in the client's form. */
export type Sequence = string;

export const readSequence = (value: number | string): Sequence => (typeof value === 'number' ? BigInt(Math.trunc(value)).toString() : value);

const numeric = (value: Sequence): boolean => /^\d+$/.test(value);

/**
 * How `next` stands to `previous`: 'same'; 'later' or 'earlier' when both are positions;
 * 'changed' when either is an opaque token and they differ.
 */
export function compareSequences(previous: Sequence, next: Sequence): 'same' | 'later' | 'earlier' | 'changed' {
  if (numeric(previous) && numeric(next)) {
    const a = BigInt(previous);
    const b = BigInt(next);
    return a === b ? 'same' : b > a ? 'later' : 'earlier';
  }
  return previous === next ? 'same' : 'changed';
}

/** A position as a number for display and ordering, where it fits one; 0 otherwise. */
export function sequenceNumber(value: number | string | undefined): number {
  if (value === undefined) return 0;
  const n = typeof value === 'number' ? value : numeric(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}
