/**
 * Downloads one version's bytes to a path the user chose (a saved copy, a file to open, the
 * source of a restore): into a hidden temp file beside it, hashed on the way, and renamed into
 * place only when size and checksum match (by size alone where the checksum's algorithm cannot be
 * told). A failed or cut download leaves nothing behind.
 */
import { hashingFor, newHasher, verifies } from '../local/checksum.js';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { tempFileName } from '../local/own-files.js';
import type { ServiceClient } from '../service-client/index.js';
import { AppError } from './bridge-errors.js';

export interface VersionBytes {
  workspaceId: string;
  assetId: string;
  versionId: string;
  checksum: string;
  size: number;
}

export async function downloadVersionTo(client: ServiceClient, version: VersionBytes, destination: string, signal?: AbortSignal): Promise<void> {
  const call = signal ? { signal } : {};
  const signed = await client.getDownloadUrl(version.workspaceId, version.assetId, version.versionId, call);
  const response = await client.downloadRange(signed.url, call);
  const temp = join(dirname(destination), tempFileName());
  const hash = newHasher(hashingFor(version.checksum));
  let size = 0;
  const hasher = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  try {
    await pipeline(response.body, hasher, createWriteStream(temp, { flags: 'wx', mode: 0o644 }));
    if (!verifies(version, { checksum: hash.digest(), size })) {
      throw new AppError('checksum_mismatch', 'The downloaded bytes do not match the version on the service. Nothing was saved; try again.');
    }
    await rename(temp, destination);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
