/**
 * The service's checksum: one algorithm for the whole service, in lowercase hex. SHA-256 by
 * default; `--checksum md5` makes a service like those that answer MD5 (the reference never
 * names the algorithm), so clients are tested against another one.
 */
import { createHash, type Hash } from 'node:crypto';
import { z } from 'zod';

export const CHECKSUM_ALGORITHMS = ['sha256', 'md5'] as const;
export type ChecksumAlgorithm = (typeof CHECKSUM_ALGORITHMS)[number];

const HEX_DIGITS: Record<ChecksumAlgorithm, number> = { sha256: 64, md5: 32 };
const NAMES: Record<ChecksumAlgorithm, string> = { sha256: 'SHA-256', md5: 'MD5' };

export const checksumName = (algorithm: ChecksumAlgorithm): string => NAMES[algorithm];

/** A checksum as this service takes it in a request. */
export const checksumField = (algorithm: ChecksumAlgorithm) =>
  z.string().regex(new RegExp(`^[0-9a-f]{${HEX_DIGITS[algorithm]}}$`), `expected a ${NAMES[algorithm]} checksum in lowercase hex`);

export const newHash = (algorithm: ChecksumAlgorithm): Hash => createHash(algorithm);

export const checksumOf = (algorithm: ChecksumAlgorithm, bytes: Uint8Array | string): string => createHash(algorithm).update(bytes).digest('hex');
