/**
 * Case-only folder renames. A folder both sides have under one key but spell
 * differently ("Brand" here, "brand" on the service) was renamed in letter case on one side:
 * the side that kept the base's spelling follows, by renaming the folder itself, so nothing in
 * it is moved, uploaded, downloaded or deleted. With no base, or renamed on both sides to
 * different spellings, the service's spelling wins, as for files (plan.ts `alignNames`):
 * only the case of a name differs, so nothing is lost either way.
 *
 * The renames run before anything else (order.ts), shallow to deep. The rest of the planner
 * then works on the views as they will be once the renames ran: paths below a renamed folder
 * take its new spelling on both sides (the keys do not change), so the files' base rows still
 * spelled the old way are re-spelled by the usual record actions, and every other action names
 * the folder as it will be on disk. The base view is left as it is: it says what was synced.
 */
import { pathKey } from '../../local/paths.js';
import type { MoveLocalFolder, MoveRemoteFolder } from '../actions.js';
import type { PlannerInput } from '../../model/views.js';
import { joinPath, nameOf, parentOf, sortedEntries } from '../rel-path.js';

export type FolderRename = MoveLocalFolder | MoveRemoteFolder;

export interface FolderCaseAlignment {
  /** Each names its folder with its parents' new spellings (order.ts runs them shallow first). */
  renames: FolderRename[];
  /** The input with local and remote paths re-spelled as they will be after the renames. */
  input: PlannerInput;
}

/** A folder the two sides spell differently, and which side renames it. */
interface Decision {
  key: string;
  localName: string;
  remoteName: string;
  baseName: string | null;
  folderId: string;
  follows: 'local' | 'remote';
}

export function alignFolderCase(input: PlannerInput): FolderCaseAlignment {
  const { local, base, remote } = input.folders;
  const decisions: Decision[] = [];
  /** Key -> the folder's own name once renamed. */
  const newNames = new Map<string, string>();
  for (const [key, l] of sortedEntries(local)) {
    const r = remote.get(key);
    if (r === undefined || r.path === l.path || nameOf(r.path) === nameOf(l.path)) continue;
    const b = base.get(key);
    const baseName = b === undefined ? null : nameOf(b.path);
    // Only a service that kept the base's spelling follows; otherwise the service's spelling wins.
    const follows = baseName === nameOf(r.path) ? 'remote' : 'local';
    const decision: Decision = { key, localName: nameOf(l.path), remoteName: nameOf(r.path), baseName, folderId: r.folderId, follows };
    decisions.push(decision);
    newNames.set(key, follows === 'remote' ? decision.localName : decision.remoteName);
  }
  if (decisions.length === 0) return { renames: [], input };

  const views = respelled(input, newNames);
  const renames = decisions.map((d): FolderRename => {
    // The parent as it will be when this runs: a parent's own rename runs first (order.ts).
    const parent = parentOf(views.folders.local.get(d.key)?.path ?? '');
    const { folderId } = d;
    if (d.follows === 'remote') {
      const [from, to] = [joinPath(parent, d.remoteName), joinPath(parent, d.localName)];
      return { kind: 'move-remote', item: 'folder', from, to, folderId, reason: `folder renamed to "${d.localName}" locally` };
    }
    const [from, to] = [joinPath(parent, d.localName), joinPath(parent, d.remoteName)];
    return { kind: 'move-local', item: 'folder', from, to, folderId, reason: localRenameReason(d) };
  });
  return { renames, input: views };
}

function localRenameReason({ localName, baseName, remoteName }: Decision): string {
  if (baseName === localName) return `folder renamed to "${remoteName}" on the service`;
  if (baseName === null) return `the folder is spelled "${remoteName}" on the service: the service's spelling wins`;
  return `folder renamed to "${remoteName}" on the service and to "${localName}" locally: the service's spelling wins (only the case differs, nothing is lost)`;
}

/** The input with every folder in `newNames` spelled its new way in local and remote paths. */
function respelled(input: PlannerInput, newNames: ReadonlyMap<string, string>): PlannerInput {
  const respell = (relPath: string, ownName: boolean): string => {
    const names = relPath.split('/');
    const folders = ownName ? names.length : names.length - 1;
    let prefix = '';
    let changed = false;
    for (let i = 0; i < folders; i++) {
      prefix = joinPath(prefix, names[i] as string);
      const name = newNames.get(pathKey(prefix));
      if (name !== undefined && name !== names[i]) {
        names[i] = name;
        changed = true;
      }
    }
    return changed ? names.join('/') : relPath;
  };
  const files = <T extends { path: string }>(map: ReadonlyMap<string, T>): Map<string, T> => respellAll(map, (p) => respell(p, false));
  const folders = <T extends { path: string }>(map: ReadonlyMap<string, T>): Map<string, T> => respellAll(map, (p) => respell(p, true));
  return {
    ...input,
    files: { local: files(input.files.local), base: input.files.base, remote: files(input.files.remote) },
    folders: { local: folders(input.folders.local), base: input.folders.base, remote: folders(input.folders.remote) },
  };
}

/** Same keys (a case-only change keeps them); an item is copied only if its path changes. */
function respellAll<T extends { path: string }>(map: ReadonlyMap<string, T>, respell: (relPath: string) => string): Map<string, T> {
  const out = new Map<string, T>();
  for (const [key, item] of map) {
    const path = respell(item.path);
    out.set(key, path === item.path ? item : { ...item, path });
  }
  return out;
}
