/**
 * The planner: one pure decision from the three views. Per path key it
 * compares what is on disk, what the service has and what both had at the last sync, and says
 * what to do; it reads no clock and no disk, never mutates its input, and gives the same plan
 * (actions in the same order) for the same input.
 *
 * Safety rules, in order of precedence:
 * - Unsynced local work is never deleted: a file changed here and deleted on the service is
 *   uploaded again as a new asset; a conflict keeps the local edit as a conflicted copy.
 * - A remote edit wins over a local deletion: it is downloaded again.
 * - Equal checksums are never a conflict (both sides made the same change): only the base is
 *   rewritten.
 * - Checksums are compared only within one algorithm (main/local/checksum.ts). Where two cannot
 *   be compared (the service changed algorithm, or sends a form nobody can tell), a local file is
 *   unchanged while its stamp is the base's, a remote one while its version is the base's, and
 *   two files are never taken for the same content.
 */
import { sameBytes } from '../../local/checksum.js';
import { pathKey } from '../../local/paths.js';
import type { Action, Conflict, Download, MoveLocalFile, MoveRemoteAsset, RecordBase } from '../actions.js';
import { assertNever } from '../actions.js';
import { isDeletion, massDeleteBrake, summarize, type HeldBrake, type PlanSummary } from './brake.js';
import { conflictCopyPath } from '../conflict-name.js';
import { filePathsAfter } from './effects.js';
import { foldersHolding, planFolders } from './folder-plan.js';
import { versionSuffix, type BaseFile, type LocalFile, type LocalFolder, type PlannerInput, type RemoteFile } from '../../model/views.js';
import { alignMoves, type FileSlot } from './file-moves.js';
import { orderActions } from './order.js';
import { alignFolderCase } from './folder-case.js';
import { planFolderMoves } from './folder-moves.js';
import { isRename, joinPath, nameOf, parentOf } from '../rel-path.js';

export interface Plan {
  /** In execution order (see order.ts). */
  actions: readonly Action[];
  /** Everything the planner decided, the deletions the brake held back included: what the brake measures. */
  summary: PlanSummary;
  /**
   * Set when the plan deletes too much: `actions` then hold no deletion, and the brake lists
   * those it held back, which run only once the user confirms them (`allowMassDelete`).
   */
  brake: HeldBrake | null;
  /**
   * Set when the plan holds folder moves only: everything else is decided by the next plan, so
   * what this one leaves out is not settled (failures, interrupted downloads stand).
   */
  movesFirst?: true;
}

export function plan(input: PlannerInput): Plan {
  // Folder moves run alone: the next plan sees the folders where they went (planner/folder-moves.ts).
  const folderMoves = planFolderMoves(input, spellingOnDisk(input.folders.local), input.failing);
  if (folderMoves.length > 0) {
    const actions = orderActions(folderMoves);
    return { actions, summary: summarize(actions, input.files.base.size), brake: null, movesFirst: true };
  }
  // From here on, paths are as they will be once the folders' case-only renames ran.
  const { renames, input: views } = alignFolderCase(input);
  const localSpelling = spellingOnDisk(views.folders.local);
  const ownCopies = input.ownCopies ?? new Map<string, string>();
  const { slots, moves } = alignMoves(views.files, localSpelling, ownCopies);
  const context: SlotContext = {
    ownCopies,
    selfUserId: input.selfUserId,
    folderKept: (folderPath) => {
      if (folderPath === '') return true;
      const key = pathKey(folderPath);
      const b = views.folders.base.get(key);
      return b !== undefined && views.folders.remote.get(key)?.folderId === b.folderId;
    },
    localSpelling,
    conflictCopyFor: conflictNamer(input),
  };
  const fileActions: Action[] = [...moves];
  for (const [key, slot] of slots) fileActions.push(...planSlot(key, slot, context));

  const occupied = (): Set<string> => foldersHolding(filePathsAfter(views.files, fileActions));
  // A renamed folder's base row is written by its rename, and only if that succeeds: recorded
  // at the new spelling while the rename failed, it would read as a rename the other way.
  const renamed = new Set(renames.map((r) => pathKey(r.to)));
  const folderActions = planFolders(views.folders, occupied, localSpelling).filter(
    (a) => a.kind !== 'record-folder-base' || !renamed.has(pathKey(a.base.path)),
  );
  const actions = orderActions([...renames, ...fileActions, ...folderActions]);
  const summary = summarize(actions, input.files.base.size);
  const brake = input.allowMassDelete === true ? null : massDeleteBrake(summary, input.recentDeletes);
  if (brake === null) return { actions, summary, brake };
  // The brake holds: no deletion runs, everything else still syncs.
  return { actions: actions.filter((a) => !isDeletion(a)), summary, brake: { ...brake, held: actions.filter(isDeletion) } };
}

interface SlotContext {
  /** Conflicted copies this client made: path key → the file each was made from. */
  ownCopies: ReadonlyMap<string, string>;
  selfUserId: string;
  /** Whether the folder at this path is the one the base knows there, on the service too (the root always is). */
  folderKept: (folderPath: string) => boolean;
  localSpelling: (relPath: string) => string;
  conflictCopyFor: (localPath: string) => string;
}

function planSlot(key: string, slot: FileSlot, context: SlotContext): Action[] {
  const { local, base, remote } = slot;
  if (base === undefined) return planUntracked(local, remote, context);

  const actions = planTracked(local, base, remote, context);
  // The base row is still at the old path when both sides made the same move, or when the
  // service moved a file deleted here. Unless a rename carries it along, it leaves the old path
  // (which may get a row of its own). The actions here write the row at the new path, except
  // a wait for a lock: then the row itself moves, so the next attempt finds it.
  const rowCarried = actions.some((a) => (a.kind === 'move-local' || a.kind === 'move-remote') && a.item !== 'folder' && a.basePath === base.path);
  if (pathKey(base.path) !== key && !rowCarried) {
    actions.push({ kind: 'forget-base', path: base.path, reason: 'the file is now tracked at its new path' });
    const wait = actions.find((a) => a.kind === 'locked');
    if (wait !== undefined) {
      const path = context.localSpelling(wait.path);
      actions.push({ kind: 'record-base', base: { ...base, path }, reason: 'moved while waiting for a lock' });
    }
  }
  return actions;
}

type Change = 'unchanged' | 'changed';

/** A tracked file's cell of the three-way matrix, with the files the cell has. */
type TrackedCell =
  | { cell: 'absent/absent' }
  | { cell: `absent/${Change}`; remote: RemoteFile }
  | { cell: `${Change}/absent`; local: LocalFile }
  | { cell: `${Change}/${Change}`; local: LocalFile; remote: RemoteFile };

function classify(local: LocalFile | undefined, base: BaseFile, remote: RemoteFile | undefined): TrackedCell {
  const localChange = (l: LocalFile): Change =>
    (sameBytes(l.checksum, base.checksum) ?? (l.size === base.size && l.mtimeNs === base.mtimeNs && l.inode === base.inode)) ? 'unchanged' : 'changed';
  // Compared by content: a new version with the last synced bytes changes nothing to transfer,
  // only the version id the base records. Another asset at the path is a change, though: a
  // local deletion must not delete an asset this client never synced.
  const remoteChange = (r: RemoteFile): Change =>
    r.assetId === base.assetId && (sameBytes(r.checksum, base.checksum) ?? r.versionId === base.versionId) ? 'unchanged' : 'changed';
  if (local === undefined) {
    return remote === undefined ? { cell: 'absent/absent' } : { cell: `absent/${remoteChange(remote)}`, remote };
  }
  if (remote === undefined) return { cell: `${localChange(local)}/absent`, local };
  return { cell: `${localChange(local)}/${remoteChange(remote)}`, local, remote };
}

/** The cells of the three-way matrix where the base knows the file. */
function planTracked(
  local: LocalFile | undefined,
  base: BaseFile,
  remote: RemoteFile | undefined,
  context: SlotContext,
): Action[] {
  const c = classify(local, base, remote);
  switch (c.cell) {
    case 'absent/absent':
      return [{ kind: 'forget-base', path: base.path, reason: 'deleted on both sides' }];
    case 'absent/unchanged': {
      const r = c.remote;
      const lockedBy = lockHolder(r, context);
      if (lockedBy !== null) {
        return [
          {
            kind: 'locked',
            path: r.path,
            assetId: r.assetId,
            lockedByUserId: lockedBy,
            blocked: 'delete-remote',
            reason: `deleted locally, but the asset is locked by user ${lockedBy}: the deletion waits for the lock`,
          },
        ];
      }
      return [
        {
          kind: 'delete-remote',
          path: r.path,
          assetId: r.assetId,
          parentVersionId: r.versionId,
          reason: 'deleted locally; the service still has the version last synced',
        },
      ];
    }
    case 'absent/changed':
      return [
        download(
          context.localSpelling(c.remote.path),
          c.remote,
          null,
          'deleted locally, but changed on the service since the last sync: the remote edit wins over the deletion',
        ),
      ];
    case 'unchanged/absent':
      return [
        {
          kind: 'delete-local',
          path: c.local.path,
          expectedChecksum: c.local.checksum,
          reason: 'deleted on the service; the local file has no unsynced changes (moved to the trash)',
        },
      ];
    case 'unchanged/unchanged': {
      const { path, rename } = alignNames(c.local, base, c.remote);
      const synced = syncedBase(path, c.local, c.remote);
      if (!baseIsStale(base, synced)) return optional(rename);
      return [...optional(rename), { kind: 'record-base', base: synced, reason: staleReason(base, synced) }];
    }
    case 'unchanged/changed': {
      const { local: l, remote: r } = c;
      const { path, rename } = alignNames(l, base, r);
      if (sameContent(r, l)) {
        const reason = 'replaced on the service by another asset with the same content: nothing to transfer';
        return [...optional(rename), recordBase(path, l, r, reason)];
      }
      return [...optional(rename), download(path, r, l.checksum, `changed on the service${versionSuffix(r)}; no local changes`)];
    }
    case 'changed/absent':
      // The asset can come back where it was only if its folder is still the one it was in.
      if (!context.folderKept(parentOf(c.local.path))) {
        return [
          {
            kind: 'upload-new',
            path: c.local.path,
            local: c.local,
            reason: 'deleted on the service, but changed locally since the last sync: uploaded as a new asset instead of deleting unsynced work',
          },
        ];
      }
      return [
        {
          kind: 'upload-new',
          path: c.local.path,
          local: c.local,
          revive: { assetId: base.assetId, parentVersionId: base.versionId },
          reason: 'deleted on the service, but changed locally since the last sync: the asset is restored with the edit as its new version, instead of deleting unsynced work',
        },
      ];
    case 'changed/unchanged': {
      const { local: l, remote: r } = c;
      const { path, rename } = alignNames(l, base, r);
      const lockedBy = lockHolder(r, context);
      if (lockedBy !== null) {
        return [
          ...optional(rename),
          {
            kind: 'locked',
            path,
            assetId: r.assetId,
            lockedByUserId: lockedBy,
            blocked: 'upload-version',
            reason: `changed locally, but the asset is locked by user ${lockedBy}: the upload waits for the lock`,
          },
        ];
      }
      return [
        ...optional(rename),
        {
          kind: 'upload-version',
          path,
          assetId: r.assetId,
          // The version whose bytes the local edit started from: the base's, or a later one
          // with the same bytes (a commit against the base's would be refused).
          parentVersionId: r.versionId,
          local: { ...l, path },
          reason: 'changed locally; the service still has the content last synced',
        },
      ];
    }
    case 'changed/changed': {
      const { local: l, remote: r } = c;
      if (!sameContent(l, r)) return [conflict(l, base, r, context)];
      const { path, rename } = alignNames(l, base, r);
      const reason = 'changed on both sides to the same content: nothing to transfer';
      return [...optional(rename), recordBase(path, l, r, reason)];
    }
    default:
      return assertNever(c);
  }
}

/** The cells where the base does not know the path. */
function planUntracked(local: LocalFile | undefined, remote: RemoteFile | undefined, context: SlotContext): Action[] {
  if (local !== undefined && remote !== undefined) {
    if (!sameContent(local, remote)) return [conflict(local, undefined, remote, context)];
    const { path, rename } = alignNames(local, undefined, remote);
    const reason = 'same content on both sides: nothing to transfer';
    return [...optional(rename), recordBase(path, local, remote, reason)];
  }
  if (local !== undefined) {
    const copyOf = context.ownCopies.get(pathKey(local.path));
    if (copyOf !== undefined) return [{ kind: 'upload-new', path: local.path, local, copyOf, reason: `conflicted copy of "${copyOf}"` }];
    return [{ kind: 'upload-new', path: local.path, local, reason: 'new local file' }];
  }
  if (remote !== undefined) {
    return [download(context.localSpelling(remote.path), remote, null, 'new on the service')];
  }
  return [];
}

/**
 * Local and service spell the name differently (a case-only rename; other renames change the
 * key and were handled as moves): the side that did not rename follows. With no base, or
 * both renamed, the service's name wins.
 */
function alignNames(
  local: LocalFile,
  base: BaseFile | undefined,
  remote: RemoteFile,
): { path: string; rename: MoveLocalFile | MoveRemoteAsset | null } {
  if (!isRename(local.path, remote.path)) return { path: local.path, rename: null };
  const basePath = base?.path ?? null;
  if (base === undefined || isRename(base.path, remote.path)) {
    const to = joinPath(parentOf(local.path), nameOf(remote.path));
    return {
      path: to,
      rename: { kind: 'move-local', from: local.path, to, basePath, reason: `renamed to "${nameOf(remote.path)}" on the service` },
    };
  }
  return {
    path: local.path,
    rename: {
      kind: 'move-remote',
      from: remote.path,
      to: local.path,
      assetId: remote.assetId,
      basePath,
      reason: `renamed to "${nameOf(local.path)}" locally`,
    },
  };
}

function conflict(local: LocalFile, base: BaseFile | undefined, remote: RemoteFile, context: SlotContext): Conflict {
  const path = joinPath(parentOf(local.path), nameOf(remote.path));
  // A copy of ours in a conflict of its own is named after its original: never a copy of a copy.
  const copyOf = context.ownCopies.get(pathKey(local.path));
  const copyPath = context.conflictCopyFor(copyOf ?? local.path);
  const what = base === undefined ? 'created on both sides with different content' : 'changed on both sides since the last sync';
  return {
    kind: 'conflict',
    path,
    copyPath,
    local,
    remote,
    base: base ?? null,
    steps: [
      { kind: 'move-local', from: local.path, to: copyPath, basePath: null, reason: 'keep the local edit as a conflicted copy' },
      { kind: 'upload-new', path: copyPath, local: { ...local, path: copyPath }, copyOf: copyOf ?? path, reason: 'upload the conflicted copy as a new asset' },
      download(path, remote, null, "the service's version keeps the name"),
    ],
    reason: `${what}: the service's version stays at "${path}", the local edit is kept as "${copyPath}"`,
  };
}

/** Known to hold the same bytes: checksums of one algorithm that are equal. */
const sameContent = (a: { checksum: string }, b: { checksum: string }): boolean => sameBytes(a.checksum, b.checksum) === true;

function download(path: string, remote: RemoteFile, replaces: string | null, reason: string): Download {
  return { kind: 'download', path, remote, replaces, reason };
}

function recordBase(path: string, local: LocalFile, remote: RemoteFile, reason: string): RecordBase {
  return { kind: 'record-base', base: syncedBase(path, local, remote), reason };
}

/** The base row for a file both sides hold with the same bytes. */
function syncedBase(path: string, local: LocalFile, remote: RemoteFile): BaseFile {
  return {
    path,
    assetId: remote.assetId,
    versionId: remote.versionId,
    checksum: local.checksum,
    size: local.size,
    mtimeNs: local.mtimeNs,
    inode: local.inode,
  };
}

function baseIsStale(was: BaseFile, now: BaseFile): boolean {
  return (
    was.path !== now.path ||
    was.assetId !== now.assetId ||
    was.versionId !== now.versionId ||
    was.size !== now.size ||
    was.mtimeNs !== now.mtimeNs ||
    was.inode !== now.inode
  );
}

function staleReason(was: BaseFile, now: BaseFile): string {
  if (was.assetId !== now.assetId || was.versionId !== now.versionId) {
    return 'the service has a new version with the content last synced: nothing to transfer';
  }
  if (was.path !== now.path) return `now at "${now.path}" on both sides`;
  return 'touched locally without a content change';
}

/** The user holding the asset's lock, unless none or this client's own user. */
function lockHolder(remote: RemoteFile, context: SlotContext): string | null {
  const holder = remote.lockedByUserId;
  return holder !== null && holder !== context.selfUserId ? holder : null;
}

function optional<T>(value: T | null): T[] {
  return value === null ? [] : [value];
}

/**
 * Turns a path as the service spells it into the path it takes on disk: existing local folders
 * keep their own spelling ("docs/a.txt" lands in "Docs/" if that is on disk), which matters on
 * case-sensitive file systems.
 */
function spellingOnDisk(localFolders: ReadonlyMap<string, LocalFolder>): (relPath: string) => string {
  const spell = (relPath: string): string => {
    const parent = parentOf(relPath);
    if (parent === '') return relPath;
    const folder = localFolders.get(pathKey(parent));
    return joinPath(folder === undefined ? spell(parent) : folder.path, nameOf(relPath));
  };
  return spell;
}

/** Conflicted copy names, unique against every path either side has and each other. */
function conflictNamer(input: PlannerInput): (localPath: string) => string {
  // Gathered at the first conflict: most plans have none.
  let taken: Set<string> | undefined;
  const takenKeys = (): Set<string> => {
    if (taken !== undefined) return taken;
    taken = new Set<string>();
    for (const state of [input.files, input.folders]) {
      for (const map of [state.local, state.base, state.remote]) for (const key of map.keys()) taken.add(key);
    }
    return taken;
  };
  return (localPath) => {
    const keys = takenKeys();
    const copy = conflictCopyPath(localPath, input.deviceName, input.now, (key) => keys.has(key));
    keys.add(pathKey(copy));
    return copy;
  };
}
