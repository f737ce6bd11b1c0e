/**
 * What a checksum is on this device, and how the service's checksums are read. The reference
 * never names the algorithm: it is recognised from the form the service gives, a hex or base64
 * digest whose length tells the algorithm (MD5, SHA-1, SHA-256, SHA-512).
 *
 * Inside the client a checksum is one string that carries its algorithm: SHA-256, the default
 * and our service's, as 64 lowercase hex digits; another algorithm as `md5:<hex>`, `sha1:<hex>`
 * or `sha512:<hex>`; a form nobody can tell as `?:<as given>`. So two checksums compare equal
 * only when they are of the same algorithm and the same bytes, and whatever keeps one (the index,
 * the hash cache) keeps its algorithm with it.
 */
import { createHash, type Hash } from 'node:crypto';

export type HashAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';
export const DEFAULT_ALGORITHM: HashAlgorithm = 'sha256';

/** How the service writes its checksums, learned from those it sends. */
export interface ChecksumForm {
  algorithm: HashAlgorithm;
  encoding: 'hex' | 'base64';
}

const DIGEST_BYTES: Record<HashAlgorithm, number> = { md5: 16, sha1: 20, sha256: 32, sha512: 64 };
const BY_BYTES = new Map<number, HashAlgorithm>(Object.entries(DIGEST_BYTES).map(([algorithm, bytes]) => [bytes, algorithm as HashAlgorithm]));
const NAMES: Record<HashAlgorithm, string> = { md5: 'MD5', sha1: 'SHA-1', sha256: 'SHA-256', sha512: 'SHA-512' };
const UNKNOWN = '?:';

export const algorithmName = (algorithm: HashAlgorithm): string => NAMES[algorithm];

/** The checksum of a digest given in hex, in the client's form. */
export function fromHex(algorithm: HashAlgorithm, hex: string): string {
  const lower = hex.toLowerCase();
  return algorithm === DEFAULT_ALGORITHM ? lower : `${algorithm}:${lower}`;
}

/** The algorithm a checksum of the client's form is in; null when nobody could tell. */
export function algorithmOf(checksum: string): HashAlgorithm | null {
  if (checksum.startsWith(UNKNOWN)) return null;
  const colon = checksum.indexOf(':');
  if (colon < 0) return DEFAULT_ALGORITHM;
  const algorithm = checksum.slice(0, colon);
  return algorithm in DIGEST_BYTES ? (algorithm as HashAlgorithm) : null;
}

/** The hex digest of a checksum of the client's form (undefined for one of unknown form). */
export function hexOf(checksum: string): string | undefined {
  if (checksum.startsWith(UNKNOWN)) return undefined;
  const colon = checksum.indexOf(':');
  return colon < 0 ? checksum : checksum.slice(colon + 1);
}

/**
 * Whether two checksums say the same bytes: true or false when both are of one algorithm,
 * undefined when they cannot be compared (another algorithm, or an unknown form).
 */
export function sameBytes(a: string, b: string): boolean | undefined {
  const algorithm = algorithmOf(a);
  if (algorithm === null || algorithm !== algorithmOf(b)) return undefined;
  return a === b;
}

/**
 * A checksum as the service sent it, in the client's form, with the form it was written in (null:
 * not a form of a known algorithm; the bytes can then be checked by their size only).
 */
export function readServiceChecksum(text: string): { checksum: string; form: ChecksumForm | null } {
  const value = text.trim();
  if (/^[0-9a-fA-F]+$/.test(value) && value.length % 2 === 0) {
    const algorithm = BY_BYTES.get(value.length / 2);
    if (algorithm) return { checksum: fromHex(algorithm, value), form: { algorithm, encoding: 'hex' } };
  }
  if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(value)) {
    const standard = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    const bytes = Buffer.from(standard, 'base64');
    const algorithm = BY_BYTES.get(bytes.length);
    // Only text that is exactly the base64 of those bytes (Node skips what it cannot decode).
    if (algorithm && bytes.toString('base64').replace(/=+$/, '') === standard) return { checksum: fromHex(algorithm, bytes.toString('hex')), form: { algorithm, encoding: 'base64' } };
  }
  return { checksum: `${UNKNOWN}${text}`, form: null };
}

/** A checksum of the client's form as the service writes it (hex by default). */
export function toServiceChecksum(checksum: string, form: ChecksumForm | null | undefined): string {
  if (checksum.startsWith(UNKNOWN)) return checksum.slice(UNKNOWN.length);
  const hex = hexOf(checksum) ?? checksum;
  return form?.encoding === 'base64' ? Buffer.from(hex, 'hex').toString('base64') : hex;
}

/**
 * Whether bytes that hashed to `got` (in the algorithm of `expected`, see `hashingFor`) are those
 * of `expected`: by checksum when its algorithm is known, by size alone otherwise.
 */
export function verifies(expected: { checksum: string; size: number }, got: { checksum: string; size: number }): boolean {
  if (got.size !== expected.size) return false;
  return algorithmOf(expected.checksum) === null || got.checksum === expected.checksum;
}

/** The algorithm to hash bytes with that are to be checked against `checksum` (SHA-256 when it cannot be told). */
export const hashingFor = (checksum: string): HashAlgorithm => algorithmOf(checksum) ?? DEFAULT_ALGORITHM;

/** A hash of `algorithm` whose digest comes out in the client's form. */
export interface Hasher {
  update(bytes: Uint8Array): void;
  digest(): string;
}

export function newHasher(algorithm: HashAlgorithm = DEFAULT_ALGORITHM): Hasher {
  const hash: Hash = createHash(algorithm);
  return {
    update: (bytes) => void hash.update(bytes),
    digest: () => fromHex(algorithm, hash.digest('hex')),
  };
}
