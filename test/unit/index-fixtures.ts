/** Shared fixtures of the index tests: a temp folder per test and rows that look like real ones. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type IndexOptions, type SyncIndex, openIndex } from '../../main/index/sync-index.js';
import type { NewWorkspace } from '../../main/index/workspaces.js';
import type { BaseFile, RemoteFile } from '../../main/model/views.js';

export interface TempIndex {
  /** Path of `index.db` in this test's temp folder. */
  file: () => string;
  /** Opens the index at `file()`, runs `fn`, closes it: one app run. */
  withIndex: <T>(fn: (index: SyncIndex) => T, options?: IndexOptions) => T;
}

/** A fresh temp folder for each test of the calling file, holding the index file. */
export function useTempIndex(): TempIndex {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'asset-sync-index-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const file = (): string => path.join(dir, 'index.db');
  return {
    file,
    withIndex(fn, options) {
      const index = openIndex(file(), options);
      try {
        return fn(index);
      } finally {
        index.close();
      }
    },
  };
}

export const checksumOf = (n: number): string => n.toString(16).padStart(64, '0');

export function workspace(id = 'ws-1'): NewWorkspace {
  return { id, accountId: 'acct-1', name: `Workspace ${id}`, localPath: `/home/ana/Asset Sync/${id}` };
}

/** Adds a workspace row to an index of an older version, as every version's store wrote it. */
export function addOldWorkspace(db: { prepare(sql: string): { run(...values: unknown[]): unknown } }, id = 'ws-1'): void {
  const w = workspace(id);
  db.prepare("INSERT INTO workspaces (id, account_id, name, local_path, excluded_paths, paused) VALUES (?, ?, ?, ?, '[]', 0)").run(w.id, w.accountId, w.name, w.localPath);
}

export function baseFile(i: number, overrides: Partial<BaseFile> = {}): BaseFile {
  return {
    path: `Brand/Logos/logo-${i}.psd`,
    assetId: `asset-${i}`,
    versionId: `version-${i}`,
    checksum: checksumOf(i),
    size: 1000 + i,
    mtimeNs: `${1_700_000_000_000_000_000n + BigInt(i)}`,
    inode: 5_000_000 + i,
    ...overrides,
  };
}

export function remoteFile(i: number, overrides: Partial<RemoteFile> = {}): RemoteFile {
  return {
    path: `Brand/hero-${i}.psd`,
    assetId: `asset-${i}`,
    folderId: 'folder-brand',
    versionId: `version-${i}`,
    versionNumber: 1,
    checksum: checksumOf(i),
    size: 2000 + i,
    lockedByUserId: null,
    sequence: 100 + i,
    ...overrides,
  };
}
