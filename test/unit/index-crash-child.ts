/**
 * Child process of index-crash.test.ts: opens the index and starts a large batch write that
 * never gets to commit. It tells the parent once it is well into the batch (with pages already
 * spilled into the WAL) and carries on writing until the parent kills it with SIGKILL.
 */
import { statSync } from 'node:fs';
import { openIndex } from '../../main/index/sync-index.js';
import type { BaseFile, RemoteFile } from '../../main/model/views.js';
import { baseFile, checksumOf, remoteFile } from './index-fixtures.js';

const [file, mode] = process.argv.slice(2);
if (!file || (mode !== 'base' && mode !== 'remote')) throw new Error('usage: index-crash-child <index file> <base|remote>');

const MAX_ROWS = 4_000_000;
/** How often to look whether the batch has spilled pages into the log yet. */
const CHECK_EVERY = 5_000;

/** Rows that overwrite the existing ones and add many more, signalling midway. */
function* rows<T>(make: (i: number) => T): Generator<T> {
  let signalled = false;
  for (let i = 0; i < MAX_ROWS; i++) {
    // Signals once uncommitted pages are in the log (how many rows that takes depends on their size).
    if (!signalled && i % CHECK_EVERY === 0 && statSync(`${file}-wal`, { throwIfNoEntry: false })?.size) {
      signalled = true;
      process.send?.('mid-write');
    }
    yield make(i);
  }
  // Never commit, even if the kill comes late: wait for it, then give up (rolling back).
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  throw new Error('was not killed');
}

const index = openIndex(file);
if (mode === 'base') {
  index.base.putFiles(
    'ws-1',
    rows<BaseFile>((i) => baseFile(i, { checksum: checksumOf(1_000_000 + i), versionId: `crash-${i}` })),
  );
} else {
  index.remote.replaceAll('ws-1', {
    folders: [],
    files: rows<RemoteFile>((i) => remoteFile(i, { path: `Crash/${i}.bin` })),
    sequence: '999999',
  });
}
