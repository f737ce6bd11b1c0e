/**
 * What the planner asks the executor to do. Every action names its paths in
 * the model's form (relative, POSIX, NFC; the executor resolves them inside the sync root) and
 * says why in `reason`, which goes to the log and the activity view as is.
 *
 * Base rows: unless stated otherwise, an action that succeeds leaves the base row at its `path`
 * describing the result (a transfer writes it from the bytes it moved; a delete removes it).
 * File moves re-key the row at `basePath` to `to`; folder renames write the folder's row at `to`.
 */
import type { BaseFile, BaseFolder, LocalFile, RemoteFile } from '../model/views.js';

export interface CreateLocalFolder {
  readonly kind: 'create-local-folder';
  readonly path: string;
  /** The remote folder it mirrors, for the base row. */
  readonly folderId: string;
  readonly reason: string;
}

/** The executor resolves the parent's folder id by the parent path's key (created earlier: shallow first). */
export interface CreateRemoteFolder {
  readonly kind: 'create-remote-folder';
  readonly path: string;
  readonly reason: string;
}

/** Rename or move a file on disk. */
export interface MoveLocalFile {
  readonly kind: 'move-local';
  readonly item?: 'file';
  readonly from: string;
  readonly to: string;
  /** The base row that moves with the file (null: none). */
  readonly basePath: string | null;
  readonly reason: string;
}

/**
 * Rename or move a folder on disk, with everything in it. In letter case only ("Brand" ->
 * "brand", planner/folder-case.ts): the rows of what is in it keep their keys and are re-spelled
 * by the plan's record actions. Otherwise (planner/folder-moves.ts) the base rows and hash cache
 * entries below `from` move to `to` with it. Either way the folder's base row is written at `to`.
 */
export interface MoveLocalFolder {
  readonly kind: 'move-local';
  readonly item: 'folder';
  readonly from: string;
  readonly to: string;
  /** The remote folder both sides share, for the base row. */
  readonly folderId: string;
  readonly reason: string;
}

export type MoveLocal = MoveLocalFile | MoveLocalFolder;

/** Rename or move an asset: `file_name` = last segment of `to`, folder = the folder at its parent. */
export interface MoveRemoteAsset {
  readonly kind: 'move-remote';
  readonly item?: 'file';
  readonly from: string;
  readonly to: string;
  readonly assetId: string;
  readonly basePath: string | null;
  readonly reason: string;
}

/**
 * Rename or move a folder on the service: `name` = last segment of `to`, and for a move the
 * parent = the folder at `to`'s parent. On success the base rows move as for MoveLocalFolder.
 */
export interface MoveRemoteFolder {
  readonly kind: 'move-remote';
  readonly item: 'folder';
  readonly from: string;
  readonly to: string;
  readonly folderId: string;
  readonly reason: string;
}

export type MoveRemote = MoveRemoteAsset | MoveRemoteFolder;

/** Move the local file to the trash, only if it still has `expectedChecksum`. */
export interface DeleteLocal {
  readonly kind: 'delete-local';
  readonly path: string;
  readonly expectedChecksum: string;
  readonly reason: string;
}

/** Soft-delete the asset, conditional on its current version still being `parentVersionId`. */
export interface DeleteRemote {
  readonly kind: 'delete-remote';
  readonly path: string;
  readonly assetId: string;
  readonly parentVersionId: string;
  readonly reason: string;
}

/** Remove the local folder only if it is empty (never recursively). */
export interface DeleteLocalFolder {
  readonly kind: 'delete-local-folder';
  readonly path: string;
  readonly reason: string;
}

/** Delete the remote folder non-recursively (the service refuses if anything is left in it). */
export interface DeleteRemoteFolder {
  readonly kind: 'delete-remote-folder';
  readonly path: string;
  readonly folderId: string;
  readonly reason: string;
}

export interface Download {
  readonly kind: 'download';
  /** Where the bytes go on disk. */
  readonly path: string;
  readonly remote: RemoteFile;
  /** Checksum the file at `path` had when planned, null if there was none: if that changed
   * since, the executor must not overwrite it. */
  readonly replaces: string | null;
  readonly reason: string;
}

/** Create an asset from the local file in the folder at `path`'s parent. */
export interface UploadNew {
  readonly kind: 'upload-new';
  readonly path: string;
  /** The file as scanned: the executor re-stats before committing. */
  readonly local: LocalFile;
  /**
   * The asset the file was synced with, deleted on the service since while the file was edited
   * here: it is restored, in its folder, and the edit committed as its version on
   * `parentVersionId`, so its history, comments and reviews stay with it. Only if it cannot be
   * restored (deleted for good, its name taken meanwhile) is a new asset created.
   */
  readonly revive?: { readonly assetId: string; readonly parentVersionId: string };
  /**
   * The file is a conflicted copy this client made of the file at `copyOf`: should its name be
   * taken on the service meanwhile, it moves to the next free conflicted-copy name of `copyOf`.
   */
  readonly copyOf?: string;
  readonly reason: string;
}

/** Commit the local file as a new version, conditional on `parentVersionId`. */
export interface UploadVersion {
  readonly kind: 'upload-version';
  readonly path: string;
  readonly assetId: string;
  /** The version the local edit started from. */
  readonly parentVersionId: string;
  readonly local: LocalFile;
  readonly reason: string;
}

/**
 * Both sides changed the file differently. The remote version keeps the path; the local edit
 * is kept beside it as a conflicted copy and uploaded as a new asset. `steps` are exactly what
 * the executor runs, in order; if one fails, the rest are not run.
 */
export interface Conflict {
  readonly kind: 'conflict';
  /** Where the remote version ends up. */
  readonly path: string;
  readonly copyPath: string;
  readonly local: LocalFile;
  readonly remote: RemoteFile;
  readonly base: BaseFile | null;
  readonly steps: readonly [MoveLocalFile, UploadNew, Download];
  readonly reason: string;
}

/** Both sides already agree: write `base` (upserted by its path's key), transfer nothing. */
export interface RecordBase {
  readonly kind: 'record-base';
  readonly base: BaseFile;
  readonly reason: string;
}

/** Drop the base row at `path`: nothing is left to sync there. */
export interface ForgetBase {
  readonly kind: 'forget-base';
  readonly path: string;
  readonly reason: string;
}

export interface RecordFolderBase {
  readonly kind: 'record-folder-base';
  readonly base: BaseFolder;
  readonly reason: string;
}

export interface ForgetFolderBase {
  readonly kind: 'forget-folder-base';
  readonly path: string;
  readonly reason: string;
}

/** A local change waits: the asset is locked by someone else. Nothing is transferred; report it. */
export interface Locked {
  readonly kind: 'locked';
  readonly path: string;
  readonly assetId: string;
  readonly lockedByUserId: string;
  /** What would have run without the lock. */
  readonly blocked: 'upload-version' | 'delete-remote';
  readonly reason: string;
}

export type Action =
  | CreateLocalFolder
  | CreateRemoteFolder
  | MoveLocal
  | MoveRemote
  | DeleteLocal
  | DeleteRemote
  | DeleteLocalFolder
  | DeleteRemoteFolder
  | Download
  | UploadNew
  | UploadVersion
  | Conflict
  | RecordBase
  | ForgetBase
  | RecordFolderBase
  | ForgetFolderBase
  | Locked;

export type ActionKind = Action['kind'];

/** Ends every switch over a union: adding a kind without handling it fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}

/** The path an action is sorted and reported by. */
export function actionPath(action: Action): string {
  switch (action.kind) {
    case 'move-local':
    case 'move-remote':
      return action.to;
    case 'record-base':
    case 'record-folder-base':
      return action.base.path;
    case 'create-local-folder':
    case 'create-remote-folder':
    case 'delete-local':
    case 'delete-remote':
    case 'delete-local-folder':
    case 'delete-remote-folder':
    case 'download':
    case 'upload-new':
    case 'upload-version':
    case 'conflict':
    case 'forget-base':
    case 'forget-folder-base':
    case 'locked':
      return action.path;
    default:
      return assertNever(action);
  }
}
