/**
 * Start-up after a crash: every journal entry still open is an operation cut short. A download
 * keeps its temp file if the same bytes are still wanted (the next attempt resumes it with
 * `Range`); an upload whose commit landed gets its base row now; anything else is left to the
 * planner, which plans it again (re-committing the same key: never a second version). Temp
 * files no entry names are leftovers and go.
 */
import type { Stats } from 'node:fs';
import { lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { JournalEntry } from '../../index/journal.js';
import { resolveInsideRoot } from '../../local/paths.js';
import { runPool } from '../../local/pool.js';
import { isServiceError } from '../../service-client/index.js';
import { joinPath } from '../rel-path.js';
import { signalOpt, type ExecutorDeps } from './context.js';
import { errorMessage, isMissing } from './failures.js';
import { discardDownload, isTempName, tempPathOf } from './journal-entries.js';
import { WORKSPACE_TRASH_DIR } from './trash.js';

export async function recoverJournal(deps: ExecutorDeps): Promise<void> {
  const keep = new Set<string>();
  for (const entry of deps.index.journal.open(deps.workspaceId)) {
    try {
      if (entry.kind === 'download') {
        const temp = await recoverDownload(deps, entry);
        if (temp !== undefined) keep.add(temp);
      } else if (entry.kind === 'upload') {
        await recoverUpload(deps, entry);
      } else {
        // Moves and deletes are single renames or calls: nothing half-done to finish.
        deps.index.journal.finish(entry.id);
      }
    } catch (err) {
      if (deps.signal?.aborted) throw err;
      deps.logger.warn({ path: entry.path, kind: entry.kind, err: errorMessage(err) }, 'could not recover a journal entry; left open');
      const temp = tempPathOf(entry);
      if (temp !== undefined) keep.add(path.resolve(resolveInsideRoot(deps.root, temp)));
    }
  }
  await removeStrayTempFiles(deps, keep);
}

/** Returns the absolute temp path kept for a resume, if any. */
async function recoverDownload(deps: ExecutorDeps, entry: JournalEntry): Promise<string | undefined> {
  const temp = tempPathOf(entry);
  const remote = entry.assetId === null ? undefined : deps.index.remote.getFile(deps.workspaceId, entry.assetId);
  const wanted = remote !== undefined && remote.checksum === entry.state.checksum;
  if (temp === undefined || !wanted) {
    await discardDownload(deps, entry);
    return undefined;
  }
  const abs = resolveInsideRoot(deps.root, temp);
  const stats = await lstat(abs).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  if (stats === undefined || !stats.isFile() || (await isSecondNameOf(stats, resolveInsideRoot(deps.root, entry.path)))) {
    await discardDownload(deps, entry);
    return undefined;
  }
  return path.resolve(abs);
}

/**
 * Whether the temp file is the target itself: the download was put in place (linked to its
 * name) and the crash came before its temp name was removed.
 */
async function isSecondNameOf(temp: Stats, target: string): Promise<boolean> {
  const stats = await lstat(target).catch(() => undefined);
  return stats !== undefined && stats.ino === temp.ino && stats.dev === temp.dev;
}

async function recoverUpload(deps: ExecutorDeps, entry: JournalEntry): Promise<void> {
  const { state } = entry;
  // Without an asset id (a new asset whose answer was lost), the planner finds the asset in the
  // listing with our checksum and records the base, or plans the upload again (same key).
  if (entry.assetId === null || typeof state.checksum !== 'string') return;
  let asset;
  try {
    asset = await deps.client.getAsset(deps.workspaceId, entry.assetId, signalOpt(deps));
  } catch (err) {
    if (isServiceError(err) && err.kind === 'not_found') {
      deps.index.journal.finish(entry.id);
      return;
    }
    throw err;
  }
  const current = asset.currentVersion ?? (await deps.client.listVersions(deps.workspaceId, entry.assetId, signalOpt(deps))).find((v) => v.id === asset.current_version_id);
  if (!asset.isActive || current?.checksum !== state.checksum) return;
  if (typeof state.mtimeNs !== 'string' || typeof state.inode !== 'number') return;
  deps.index.transaction(() => {
    deps.index.base.putFile(deps.workspaceId, {
      path: entry.path,
      assetId: asset.id,
      versionId: asset.current_version_id,
      checksum: current.checksum,
      size: current.size,
      mtimeNs: state.mtimeNs as string,
      inode: state.inode as number,
    });
    deps.index.journal.finish(entry.id);
  });
  deps.logger.info({ path: entry.path }, 'an upload interrupted after its commit was recorded as synced');
}

/** Folders read at once by the sweep: their reads overlap in libuv's threads instead of queuing behind each other. */
const SWEEP_READS = 8;

/**
 * Deletes `.assetsync-*.part` files in the tree that no open entry names (symlinks are not
 * followed). Every start reads every folder of the workspace here, before its first cycle: the
 * reads overlap, and a path is made only for a folder or a temp name.
 */
async function removeStrayTempFiles(deps: ExecutorDeps, keep: ReadonlySet<string>): Promise<void> {
  const root = path.resolve(deps.root);
  await runPool([''], SWEEP_READS, async (rel, enqueue) => {
    const dir = rel === '' ? root : resolveInsideRoot(root, rel);
    const entries = await readdir(dir, { withFileTypes: true }).catch((err: unknown) => {
      if (isMissing(err)) return [];
      throw err;
    });
    for (const item of entries) {
      if (item.isDirectory()) {
        const childRel = joinPath(rel, item.name);
        if (childRel !== WORKSPACE_TRASH_DIR) enqueue(childRel);
      } else if (isTempName(item.name) && item.isFile()) {
        const childRel = joinPath(rel, item.name);
        const abs = path.resolve(resolveInsideRoot(root, childRel));
        if (!keep.has(abs)) {
          await rm(abs, { force: true });
          deps.logger.info({ path: childRel }, 'removed a leftover temp file');
        }
      }
    }
  });
}
