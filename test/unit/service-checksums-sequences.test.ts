/**
 * What the reference leaves open about checksums and sequences, read by the client: the
 * checksum algorithm is told by the form (hex of 32, 40, 64 or 128 digits, or base64 of as many
 * bytes), and a sequence is compared as a number only when both sides are digits.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newHasher, readServiceChecksum, sameBytes, toServiceChecksum, verifies, type HashAlgorithm } from '../../main/local/checksum.js';
import { compareSequences, readSequence } from '../../main/service-client/sequence.js';

const BYTES = Buffer.from('the same bytes, whatever the algorithm');
const digest = (algorithm: HashAlgorithm, encoding: 'hex' | 'base64') => createHash(algorithm).update(BYTES).digest(encoding);
const local = (algorithm: HashAlgorithm) => {
  const hasher = newHasher(algorithm);
  hasher.update(BYTES);
  return hasher.digest();
};

describe('a checksum as the service gives it', () => {
  it.each(['md5', 'sha1', 'sha256', 'sha512'] as const)('%s in hex or base64 is recognised, verifies the bytes and goes back in the same form', (algorithm) => {
    for (const encoding of ['hex', 'base64'] as const) {
      const given = digest(algorithm, encoding);
      const read = readServiceChecksum(encoding === 'hex' ? given.toUpperCase() : given);
      expect(read.form).toEqual({ algorithm, encoding });
      expect(read.checksum).toBe(local(algorithm));
      expect(verifies({ checksum: read.checksum, size: BYTES.length }, { checksum: local(algorithm), size: BYTES.length })).toBe(true);
      expect(toServiceChecksum(read.checksum, read.form)).toBe(given);
    }
  });

  it('of a form nobody can tell is read, compares with nothing, and verifies by size alone', () => {
    const read = readServiceChecksum('crc32c:AAAA');
    expect(read.form).toBeNull();
    expect(sameBytes(read.checksum, local('sha256'))).toBeUndefined();
    expect(verifies({ checksum: read.checksum, size: BYTES.length }, { checksum: local('sha256'), size: BYTES.length })).toBe(true);
    expect(verifies({ checksum: read.checksum, size: BYTES.length }, { checksum: local('sha256'), size: BYTES.length + 1 })).toBe(false);
  });

  it('of another algorithm never passes for the same bytes', () => {
    expect(sameBytes(local('md5'), local('sha256'))).toBeUndefined();
    expect(verifies({ checksum: local('md5'), size: BYTES.length }, { checksum: newHasher('md5').digest(), size: BYTES.length })).toBe(false);
  });
});

describe('a sequence', () => {
  it('compares as a number of any size when both are digits or numbers', () => {
    expect(compareSequences(readSequence(9), readSequence('10'))).toBe('later');
    expect(compareSequences('18446744073709551617', '18446744073709551616')).toBe('earlier');
    expect(compareSequences(readSequence(1532), '1532')).toBe('same');
  });

  it('is an opaque token otherwise: it only tells changed from unchanged', () => {
    expect(compareSequences('c:abc', 'c:abd')).toBe('changed');
    expect(compareSequences('c:abc', 'c:abc')).toBe('same');
    expect(compareSequences('10', 'c:abc')).toBe('changed');
  });
});
