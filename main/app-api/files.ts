/**
 * One folder level of a workspace for the Files view: what is on disk there, merged with what
 * the index knows of the service and of the last sync, each entry with its sync state. Reads one
 * directory and the index; never walks the tree.
 *
 * The order needs only names, so the folder is sorted before any entry is described: the first
 * page of a large folder (`listFolderStart`) costs one `lstat` per row it answers, not one per file,
 * and the Files view shows it while the whole folder is listed.
 */
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Problem, ProblemKind } from '../../shared/engine.js';
import type { FileEntry } from '../../shared/ipc.js';
import type { SyncIndex } from '../index/sync-index.js';
import { loadIgnoreMatcher } from '../local/ignore.js';
import { MARKER_FILE_NAME, TEMP_FILE_PREFIX, TEMP_FILE_SUFFIX } from '../local/own-files.js';
import { pathKey, resolveInsideRoot } from '../local/paths.js';
import { readStamp, type FileStamp } from '../local/stamp.js';
import type { BaseFile, RemoteFile } from '../model/views.js';
import { fileState, folderState } from './file-state.js';
import { pathErrorKind } from '../sync/executor/index.js';
import { holderNames } from '../engine/lock-holders.js';
import type { Logger } from '../logging.js';
import type { ServiceClient } from '../service-client/index.js';

export interface ListFolderInput {
  index: SyncIndex;
  workspaceId: string;
  /** Relative to the workspace folder; '' is its top. */
  folder: string;
  /** The engine's current problems for this workspace. */
  problems: readonly Problem[];
  selfUserId: string | null;
  /** Reads a file's stamp (a test counts the calls). */
  stamp?: (absPath: string) => Promise<FileStamp>;
}

/** The first entries of a folder in the order the Files view shows them, and how many it holds. */
export interface FolderStart {
  entries: FileEntry[];
  total: number;
}

interface Slot {
  name: string;
  path: string;
  isFolder: boolean;
  local?: FileStamp | undefined;
  localFolder?: boolean;
  base?: BaseFile;
  baseFolder?: boolean;
  remote?: RemoteFile;
  remoteFolder?: boolean;
  /** Its name on disk as a file, as the folder's listing spells it (its stamp is read only when it is described). */
  diskName?: string;
}

/** Worst first: a conflict needs the user more than a lock, a lock more than a retried error. */
const PROBLEM_RANK: ProblemKind[] = ['conflict', 'error', 'locked', 'unstable'];

/**
 * One collator for every comparison: `localeCompare` with options builds a collator per call,
 * which costs more than reading a folder of 10,000 files.
 */
const names = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

export const normalizeFolder = (folder: string): string => folder.replace(/\\/g, '/').replace(/^\/+|\/+$/g, '');

const isOwnFile = (name: string): boolean =>
  name === MARKER_FILE_NAME || (name.startsWith(TEMP_FILE_PREFIX) && name.endsWith(TEMP_FILE_SUFFIX));

/** Folders first, then by name as people read them; code-unit order settles names the collator calls equal. */
const displayOrder = (a: { isFolder: boolean; name: string }, b: { isFolder: boolean; name: string }): number =>
  Number(b.isFolder) - Number(a.isFolder) || names.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Every entry of the folder, in display order. */
export async function listFolder(input: ListFolderInput): Promise<FileEntry[]> {
  return (await listFolderStart(input, Infinity)).entries;
}

/**
 * The first `limit` entries of the folder in display order, described, and how many entries it
 * has. A file that went away between the folder's listing and its `lstat` is left out, so a page
 * can be a row short of `limit` and `total` one too many until the folder is listed again.
 */
export async function listFolderStart(input: ListFolderInput, limit: number): Promise<FolderStart> {
  const { index, workspaceId } = input;
  const stampOf = input.stamp ?? readStamp;
  const workspace = index.workspaces.require(workspaceId);
  const folder = normalizeFolder(input.folder);
  const absFolder = resolveInsideRoot(workspace.localPath, folder);
  const prefix = folder === '' ? '' : `${pathKey(folder)}/`;
  const slots = new Map<string, Slot>();

  /** The slot of the child of `folder` that `path` is or lies below, or undefined if elsewhere. */
  const slotFor = (path: string, isFolder: boolean): { slot: Slot; direct: boolean } | undefined => {
    const key = pathKey(path);
    if (!key.startsWith(prefix) || key === prefix) return undefined;
    const rest = path.slice(prefix.length);
    const cut = rest.indexOf('/');
    const name = cut === -1 ? rest : rest.slice(0, cut);
    const direct = cut === -1;
    const childFolder = !direct || isFolder;
    const slotKey = `${childFolder ? 'd' : 'f'}:${pathKey(name)}`;
    let slot = slots.get(slotKey);
    if (!slot) {
      slot = { name, path: folder === '' ? name : `${folder}/${name}`, isFolder: childFolder };
      slots.set(slotKey, slot);
    }
    return { slot, direct };
  };

  const base = index.base.load(workspaceId);
  const remote = index.remote.load(workspaceId);
  for (const f of base.files.values()) {
    const hit = slotFor(f.path, false);
    if (hit?.direct) hit.slot.base = f;
    else if (hit) hit.slot.baseFolder = true;
  }
  for (const f of base.folders.values()) {
    const hit = slotFor(f.path, true);
    if (hit) hit.slot.baseFolder = true;
  }
  for (const f of remote.files.values()) {
    const hit = slotFor(f.path, false);
    if (hit?.direct) hit.slot.remote = f;
    else if (hit) hit.slot.remoteFolder = true;
  }
  for (const f of remote.folders.values()) {
    const hit = slotFor(f.path, true);
    if (hit) hit.slot.remoteFolder = true;
  }

  const excludedKeys = new Set(workspace.excludedPaths.map((p) => pathKey(normalizeFolder(p))));
  const ignore = await loadIgnoreMatcher(workspace.localPath);
  for (const entry of await readFolder(absFolder)) {
    if (entry.isSymbolicLink() || isOwnFile(entry.name)) continue;
    const path = folder === '' ? entry.name.normalize('NFC') : `${folder}/${entry.name.normalize('NFC')}`;
    if (entry.isDirectory()) {
      const hit = slotFor(path, true);
      if (hit) hit.slot.localFolder = true;
    } else if (entry.isFile()) {
      const hit = slotFor(path, false);
      if (hit) hit.slot.diskName = entry.name;
    }
  }
  for (const excluded of workspace.excludedPaths) {
    const hit = slotFor(normalizeFolder(excluded), true);
    if (hit?.direct) hit.slot.remoteFolder = true;
  }

  const listed = [...slots.values()].filter((slot) => (slot.isFolder ? slot.localFolder === true || slot.remoteFolder === true : slot.diskName !== undefined || slot.remote !== undefined));
  listed.sort(displayOrder);
  const page = Number.isFinite(limit) ? listed.slice(0, limit) : listed;

  const problems = problemIndex(input.problems, index.errors.list(workspaceId));
  const entries: FileEntry[] = [];
  for (const slot of page) {
    const key = pathKey(slot.path);
    const ignored = ignore.ignores(slot.path, slot.isFolder);
    if (slot.isFolder) {
      entries.push({
        name: slot.name,
        path: slot.path,
        isFolder: true,
        size: null,
        state: folderState({
          local: slot.localFolder === true,
          synced: slot.baseFolder === true,
          remote: slot.remoteFolder === true,
          excluded: excludedKeys.has(key),
          ignored,
          problem: worstBelow(problems, key),
        }),
        assetId: null,
        versionNumber: null,
        modifiedAt: null,
        lockedBy: null,
      });
    } else {
      const local = slot.diskName === undefined ? undefined : await stampOf(join(absFolder, slot.diskName)).catch(() => undefined);
      if (!local && !slot.remote) continue;
      const state = fileState({ local, base: slot.base, remote: slot.remote, ignored, problem: problems.get(key), selfUserId: input.selfUserId });
      entries.push({
        name: slot.name,
        path: slot.path,
        isFolder: false,
        size: local?.size ?? slot.remote?.size ?? null,
        state,
        assetId: slot.remote?.assetId ?? slot.base?.assetId ?? null,
        // 0: the service did not give it.
        versionNumber: slot.remote?.versionNumber || null,
        modifiedAt: local ? new Date(Number(BigInt(local.mtimeNs) / 1_000_000n)).toISOString() : null,
        // The holder's user id; `nameLockHolders` puts the name in its place.
        lockedBy: state === 'locked' ? (slot.remote?.lockedByUserId ?? null) : null,
        ...(input.selfUserId !== null && slot.remote?.lockedByUserId === input.selfUserId ? { lockedByYou: true } : {}),
      });
    }
  }
  return { entries, total: listed.length };
}

async function readFolder(absFolder: string): Promise<Dirent[]> {
  try {
    return await readdir(absFolder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
}

/** The worst problem per path key: the engine's view of this cycle plus the retried path errors. */
function problemIndex(problems: readonly Problem[], errors: ReadonlyArray<{ path: string; code: string }>): Map<string, ProblemKind> {
  const out = new Map<string, ProblemKind>();
  const add = (path: string, kind: ProblemKind) => {
    const key = pathKey(path);
    const had = out.get(key);
    if (PROBLEM_RANK.includes(kind) && (had === undefined || PROBLEM_RANK.indexOf(kind) < PROBLEM_RANK.indexOf(had))) out.set(key, kind);
  };
  // A file waiting for the service to come back is pending, not failing ('offline' has no rank).
  for (const e of errors) add(e.path, pathErrorKind(e.code));
  for (const p of problems) if (p.path !== null) add(p.path, p.kind);
  return out;
}

function worstBelow(problems: ReadonlyMap<string, ProblemKind>, folderKey: string): ProblemKind | undefined {
  let worst: ProblemKind | undefined;
  for (const [key, kind] of problems) {
    if (key !== folderKey && !key.startsWith(`${folderKey}/`)) continue;
    if (worst === undefined || PROBLEM_RANK.indexOf(kind) < PROBLEM_RANK.indexOf(worst)) worst = kind;
  }
  return worst;
}

/**
 * Puts each lock holder's name in place of the user id `listFolder` left in `lockedBy`: "Locked by
 * Rafael Reviewer" says whom to ask. One request, and only for a folder with a lock in it.
 */
export async function nameLockHolders(entries: FileEntry[], client: ServiceClient, workspaceId: string, logger: Logger | undefined): Promise<FileEntry[]> {
  const holders = new Map(entries.filter((e) => e.lockedBy !== null).map((e) => [e.path, e.lockedBy as string]));
  if (holders.size === 0) return entries;
  const names = await holderNames(client, workspaceId, holders, logger);
  return entries.map((e) => (e.lockedBy === null ? e : { ...e, lockedBy: names.get(e.lockedBy) ?? e.lockedBy }));
}
