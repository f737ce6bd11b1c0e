/**
 * The service's checksum: one algorithm for the whole service, in lowercase hex. SHA-256 by
 * default; `--checksum md5` makes a service like those that answer MD5 (the reference never
 * names the algorithm), so clients are tested against another one. `--checksum opaque` makes a
 * service whose checksums are in a form no client can know: it takes SHA-256 in requests and
 * keeps it, but every checksum it answers with (records, conflict details, the blob origin's
 * answer and ETag) is in the form of a multipart upload's ETag, 32 hex digits, a dash and a
 * part count, which names no algorithm a client could check bytes with.
 */
import { createHash, type Hash } from 'node:crypto';
import { z } from 'zod';

export const CHECKSUM_ALGORITHMS = ['sha256', 'md5', 'opaque'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];
type HashName = Exclude<ChecksumAlgorithm, 'opaque'>;

const HEX_DIGITS: Record<HashName, number> = { sha256: 64, md5: 32 };
const NAMES: Record<HashName, string> = { sha256: 'SHA-256', md5: 'MD5' };

/** The hash the service computes and takes in requests: an opaque service keeps SHA-256. */
const hashOf = (algorithm: ChecksumAlgorithm): HashName => (algorithm === 'opaque' ? 'sha256' : algorithm);

export const checksumName = (algorithm: ChecksumAlgorithm): string => NAMES[hashOf(algorithm)];

/** A checksum as this service takes it in a request. */
export const checksumField = (algorithm: ChecksumAlgorithm) => {
  const hash = hashOf(algorithm);
  return z.string().regex(new RegExp(`^[0-9a-f]{${HEX_DIGITS[hash]}}$`), `expected a ${NAMES[hash]} checksum in lowercase hex`);
};

export const newHash = (algorithm: ChecksumAlgorithm): Hash => createHash(hashOf(algorithm));

export const checksumOf = (algorithm: ChecksumAlgorithm, bytes: Uint8Array | string): string => newHash(algorithm).update(bytes).digest('hex');

/** A kept checksum as the service answers with it. */
export const answeredChecksum = (algorithm: ChecksumAlgorithm, kept: string): string =>
  algorithm === 'opaque' ? `${createHash('md5').update(kept).digest('hex')}-1` : kept;

/** `payload` with every `checksum` it holds, at any depth, as the service answers with it. */
export function withAnsweredChecksums(algorithm: ChecksumAlgorithm, payload: unknown): unknown {
  if (algorithm !== 'opaque') return payload;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, field]) => [key, key === 'checksum' && typeof field === 'string' ? answeredChecksum(algorithm, field) : walk(field)]),
    );
  };
  return walk(payload);
}
