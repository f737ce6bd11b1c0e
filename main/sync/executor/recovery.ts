/**
 * Start-up after a crash: every journal entry still open is an operation cut short. A download
 * keeps its temp file if the same bytes are still wanted (the next attempt resumes it with
 * `Range`); an upload whose commit landed gets its base row now; anything else is left to the
 * planner, which plans it again (re-committing the same key: never a second version). Temp
 * files no entry names are leftovers: the first walk of the process finds them, and they go
 * (`removeLeftoverTemps`).
 */
import type { Stats } from 'node:fs';
import { lstat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { JournalEntry } from '../../index/journal.js';
import { resolveInsideRoot } from '../../local/paths.js';
import { isOwnTempName } from '../../local/own-files.js';
import { isServiceError } from '../../service-client/index.js';
import { nameOf } from '../rel-path.js';
import { signalOpt, type ExecutorDeps } from './context.js';
import { errorMessage, isMissing } from './failures.js';
import { discardDownload, tempPathOf } from './journal-entries.js';

export async function recoverJournal(deps: ExecutorDeps): Promise<void> {
  for (const entry of deps.index.journal.open(deps.workspaceId)) {
    try {
      if (entry.kind === 'download') {
        await recoverDownload(deps, entry);
      } else if (entry.kind === 'upload') {
        await recoverUpload(deps, entry);
      } else {
        // Moves and deletes are single renames or calls: nothing half-done to finish.
        deps.index.journal.finish(entry.id);
      }
    } catch (err) {
      if (deps.signal?.aborted) throw err;
      deps.logger.warn({ path: entry.path, kind: entry.kind, err: errorMessage(err) }, 'could not recover a journal entry; left open');
    }
  }
}

/** Closes the entry and drops its temp file, unless the temp file is kept for a resume (the entry stays open). */
async function recoverDownload(deps: ExecutorDeps, entry: JournalEntry): Promise<void> {
  const temp = tempPathOf(entry);
  const remote = entry.assetId === null ? undefined : deps.index.remote.getFile(deps.workspaceId, entry.assetId);
  const wanted = remote !== undefined && remote.checksum === entry.state.checksum;
  if (temp === undefined || !wanted) return discardDownload(deps, entry);
  const abs = resolveInsideRoot(deps.root, temp);
  const stats = await lstat(abs).catch((err: unknown) => {
    if (isMissing(err)) return undefined;
    throw err;
  });
  if (stats === undefined || !stats.isFile() || (await isSecondNameOf(stats, resolveInsideRoot(deps.root, entry.path)))) await discardDownload(deps, entry);
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

/**
 * Deletes the temp files a walk of the workspace found (`ScanResult.temps`) that no open journal
 * entry names and this process did not make: leftovers of a process killed while writing one
 * (downloads, and restore, save-version and the app's downloads, which keep no entry). The
 * first walk of each process brings them, before its first plan is carried out: a start reads
 * its folders once, not once more for this.
 */
export async function removeLeftoverTemps(deps: Pick<ExecutorDeps, 'index' | 'workspaceId' | 'root' | 'logger'>, temps: readonly string[]): Promise<void> {
  if (temps.length === 0) return;
  const root = path.resolve(deps.root);
  const keep = new Set<string>();
  for (const entry of deps.index.journal.open(deps.workspaceId)) {
    const temp = tempPathOf(entry);
    if (temp !== undefined) keep.add(path.resolve(resolveInsideRoot(root, temp)));
  }
  for (const rel of temps) {
    if (isOwnTempName(nameOf(rel))) continue;
    const abs = path.resolve(resolveInsideRoot(root, rel));
    if (keep.has(abs)) continue;
    try {
      await unlink(abs);
      deps.logger.info({ path: rel }, 'removed a leftover temp file');
    } catch (err) {
      if (!isMissing(err)) deps.logger.warn({ path: rel, err: errorMessage(err) }, 'a leftover temp file could not be removed');
    }
  }
}
