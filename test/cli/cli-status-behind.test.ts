/**
 * `asset-sync status` on an index that knows files the disk does not hold in their listed
 * version yet, and operations a stop cut short: how many it counts, and that it leaves out those under a folder not synced here
 * (matched as paths are matched on disk: Unicode-normalised, case-insensitive), and files the
 * disk holds in that version under another name. The index is written through its own stores,
 * as a sync interrupted at these points leaves it; the command line reads it as a user runs it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexPathFor } from '../../main/config.js';
import { openIndex } from '../../main/index/sync-index.js';
import type { BaseFile, RemoteFile } from '../../main/model/views.js';
import { Rng, testSeed } from '../helpers/rng.js';
import { runCli } from './cli-helpers.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

const hex = (rng: Rng, bytes: number): string => Array.from({ length: bytes }, () => rng.int(0, 255).toString(16).padStart(2, '0')).join('');
const uuid = (rng: Rng): string => hex(rng, 16).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');

/** A folder left out, and spellings of it that name the same folder on disk. */
const EXCLUDED = 'Ärchiv';
const SAME_FOLDER = ['Ärchiv', 'A\u0308rchiv', 'ÄRCHIV', 'ärchiv'];
/** Names that only look alike: not the excluded folder. */
const OTHER_FOLDERS = ['Ärchiv2', 'Archiv', 'Shots', 'Ärchiv.old'];

type Kind = 'synced' | 'older' | 'missing' | 'moved';

describe('asset-sync status: what the last sync left to do', () => {
  it('counts the listed files whose synced version differs, outside the folders not synced here, and the interrupted operations', async () => {
    const rng = new Rng(testSeed('status-behind'));
    const home = tempDir('asset-sync-status-home-');
    const root = tempDir('asset-sync-status-root-');
    const workspaceId = uuid(rng);
    const remote: RemoteFile[] = [];
    const base: BaseFile[] = [];
    let behind = 0;
    const count = rng.int(20, 60);
    for (let i = 0; i < count; i += 1) {
      const excluded = rng.chance(0.3);
      const folder = excluded ? rng.pick(SAME_FOLDER) : rng.pick(OTHER_FOLDERS);
      const path = `${folder}/file-${i}.psd`;
      const assetId = uuid(rng);
      const versionId = uuid(rng);
      const checksum = hex(rng, 32);
      remote.push({ path, assetId, folderId: null, versionId, versionNumber: 2, checksum, size: 10 + i, lockedByUserId: null, sequence: i + 1 });
      const kind = rng.weighted<Kind>({ synced: 3, older: 2, missing: 2, moved: 1 });
      const synced = { assetId, checksum, size: 10 + i, mtimeNs: '1700000000000000000', inode: 1000 + i };
      if (kind === 'synced') base.push({ path, versionId, ...synced });
      if (kind === 'older') base.push({ path, versionId: uuid(rng), ...synced });
      // The same version, still at the name it had before a rename on the service.
      if (kind === 'moved') base.push({ path: `Old/file-${i}.psd`, versionId, ...synced });
      if (!excluded && (kind === 'older' || kind === 'missing')) behind += 1;
    }
    // At least one of each, whatever the draw.
    remote.push({ path: `${SAME_FOLDER[1]}/extra.psd`, assetId: uuid(rng), folderId: null, versionId: uuid(rng), versionNumber: 1, checksum: hex(rng, 32), size: 1, lockedByUserId: null, sequence: 999 });
    remote.push({ path: 'Shots/extra.psd', assetId: uuid(rng), folderId: null, versionId: uuid(rng), versionNumber: 1, checksum: hex(rng, 32), size: 1, lockedByUserId: null, sequence: 1000 });
    behind += 1;

    // Operations a stop cut short, and one of another workspace, which is not this one's.
    const interrupted = rng.int(1, 4);
    const otherId = uuid(rng);

    const index = openIndex(indexPathFor(root, { ASSET_SYNC_HOME: home }));
    try {
      index.workspaces.add({ id: workspaceId, accountId: 'acct', name: 'Campaign', localPath: 'Campaign', excludedPaths: [EXCLUDED] });
      index.workspaces.add({ id: otherId, accountId: 'acct', name: 'Other', localPath: 'Other' });
      index.remote.replaceAll(workspaceId, { folders: [], files: remote, sequence: '7' });
      index.base.putFiles(workspaceId, base);
      for (let i = 0; i < interrupted; i += 1) index.journal.begin({ workspaceId, kind: rng.pick(['upload', 'download', 'move'] as const), path: `Shots/cut-${i}.psd` });
      index.journal.begin({ workspaceId: otherId, kind: 'download', path: 'elsewhere.psd' });
    } finally {
      index.close();
    }

    const json = await runCli(['status', '--json', '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const status = JSON.parse(json.stdout) as { state: string; workspaces: Array<{ id: string; state: string; files: number; behind: number; interrupted: number }> };
    expect(status.workspaces.find((w) => w.id === workspaceId)).toMatchObject({ state: 'incomplete', files: base.length, behind, interrupted });
    expect(status.workspaces.find((w) => w.id === otherId)).toMatchObject({ state: 'never-synced', files: 0, behind: 0, interrupted: 1 });
    expect(status.state).toBe('incomplete');

    const human = await runCli(['status', '--root', root], { env: { ASSET_SYNC_HOME: home } });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('State: not finished (the next sync finishes it)');
    expect(human.stdout).toMatch(new RegExp(`^ {2}from the service +${behind} files? not on disk yet$`, 'm'));
    expect(human.stdout).toMatch(new RegExp(`^ {2}files +${base.length}$`, 'm'));
    expect(human.stdout).toMatch(/^ {2}not synced here +Ärchiv$/m);
    expect(human.stdout).toMatch(new RegExp(`^ {2}interrupted +${interrupted} operations?$`, 'm'));
  });
});
