import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NAME_BYTES, pathKey } from '../../main/local/paths.js';
import { actionPath, assertNever, type Action, type ActionKind, type Conflict } from '../../main/sync/actions.js';
import { conflictCopyPath } from '../../main/sync/conflict-name.js';
import type {
  BaseFile,
  BaseFolder,
  LocalFile,
  LocalFolder,
  PlannerInput,
  RemoteFile,
  RemoteFolder,
} from '../../main/model/views.js';
import { plan } from '../../main/sync/planner/plan.js';

// ---- builders: a file's identity defaults from its path, its content from a label ----------

const NOW = new Date(Date.UTC(2024, 2, 5, 14, 7, 9));
const STAMP = '2024-03-05 140709';
const SELF = 'user-self';

const sha = (content: string): string => createHash('sha256').update(content).digest('hex');
/** Stable small number per path: files at different paths never share an inode by accident. */
const inodeOf = (path: string): number => 1000 + parseInt(sha(`inode:${pathKey(path)}`).slice(0, 6), 16);
const assetOf = (path: string): string => `asset:${pathKey(path)}`;
const versionOf = (content: string): string => `version:${content}`;

function local(path: string, content: string, extra: Partial<LocalFile> = {}): LocalFile {
  return { path, size: content.length, mtimeNs: '1700000000000000000', ctimeNs: '1700000000000000000', inode: inodeOf(path), checksum: sha(content), ...extra };
}

function base(path: string, content: string, extra: Partial<BaseFile> = {}): BaseFile {
  return {
    path,
    assetId: assetOf(path),
    versionId: versionOf(content),
    checksum: sha(content),
    size: content.length,
    mtimeNs: '1700000000000000000',
    inode: inodeOf(path),
    ...extra,
  };
}

function remote(path: string, content: string, extra: Partial<RemoteFile> = {}): RemoteFile {
  return {
    path,
    assetId: assetOf(path),
    folderId: null,
    versionId: versionOf(content),
    versionNumber: 1,
    checksum: sha(content),
    size: content.length,
    lockedByUserId: null,
    sequence: 1,
    ...extra,
  };
}

const byKey = <T extends { path: string }>(items: readonly T[]): Map<string, T> =>
  new Map(items.map((item) => [pathKey(item.path), item]));

interface Scenario {
  local?: LocalFile[];
  base?: BaseFile[];
  remote?: RemoteFile[];
  localFolders?: string[];
  baseFolders?: string[];
  remoteFolders?: string[];
  allowMassDelete?: boolean;
  deviceName?: string;
}

const folderId = (path: string): string => `folder:${pathKey(path)}`;

function input(s: Scenario): PlannerInput {
  const localFolders: LocalFolder[] = (s.localFolders ?? []).map((path) => ({ path }));
  const baseFolders: BaseFolder[] = (s.baseFolders ?? []).map((path) => ({ path, folderId: folderId(path) }));
  const remoteFolders: RemoteFolder[] = (s.remoteFolders ?? []).map((path) => ({
    path,
    folderId: folderId(path),
    parentId: path.includes('/') ? folderId(path.slice(0, path.lastIndexOf('/'))) : null,
  }));
  return {
    files: { local: byKey(s.local ?? []), base: byKey(s.base ?? []), remote: byKey(s.remote ?? []) },
    folders: { local: byKey(localFolders), base: byKey(baseFolders), remote: byKey(remoteFolders) },
    selfUserId: SELF,
    deviceName: s.deviceName ?? 'Studio Mac',
    now: NOW,
    ...(s.allowMassDelete === undefined ? {} : { allowMassDelete: s.allowMassDelete }),
  };
}

const kinds = (actions: readonly Action[]): ActionKind[] => actions.map((a) => a.kind);
const steps = (actions: readonly Action[]): string[] => actions.map((a) => `${a.kind} ${actionPath(a)}`);

function only<K extends ActionKind>(actions: readonly Action[], kind: K): Extract<Action, { kind: K }> {
  const found = actions.filter((a): a is Extract<Action, { kind: K }> => a.kind === kind);
  expect(found).toHaveLength(1);
  return found[0] as Extract<Action, { kind: K }>;
}

// ---- the three-way matrix ------------------------------------------------------------------

type LocalCell = 'absent' | 'same' | 'changed' | 'new';
type RemoteCell = 'absent' | 'same' | 'changed' | 'new';

function cell(l: LocalCell, r: RemoteCell): PlannerInput {
  const path = 'docs/report.pdf';
  const tracked = l !== 'new' && r !== 'new';
  const localContent = { absent: null, same: 'v1', changed: 'local edit', new: 'local new' }[l];
  const remoteContent = { absent: null, same: 'v1', changed: 'remote edit', new: 'remote new' }[r];
  return input({
    local: localContent === null ? [] : [local(path, localContent)],
    base: tracked ? [base(path, 'v1')] : [],
    remote: remoteContent === null ? [] : [remote(path, remoteContent, { folderId: folderId('docs') })],
    localFolders: ['docs'],
    baseFolders: ['docs'],
    remoteFolders: ['docs'],
  });
}

describe('plan: a file that differs from its base in one field only', () => {
  // Nearly every file is settled on all three sides, and is told so field by field: a field left
  // out of that comparison would take a change for nothing to do.
  const path = 'Docs/Report.pdf';
  const synced = (change: { local?: Partial<LocalFile>; remote?: Partial<RemoteFile> }): PlannerInput =>
    input({
      local: [local(path, 'v1', change.local)],
      base: [base(path, 'v1')],
      remote: [remote(path, 'v1', { folderId: folderId('Docs'), ...change.remote })],
      localFolders: ['Docs'],
      baseFolders: ['Docs'],
      remoteFolders: ['Docs'],
    });

  it('in none: nothing to do', () => {
    expect(plan(synced({})).actions).toEqual([]);
  });

  it.each<[string, { local?: Partial<LocalFile>; remote?: Partial<RemoteFile> }, ActionKind[]]>([
    ['the size on disk, with the same checksum', { local: { size: 99 } }, ['record-base']],
    ['the inode', { local: { inode: 7 } }, ['record-base']],
    ['the mtime', { local: { mtimeNs: '1800000000000000000' } }, ['record-base']],
    ['the checksum on disk', { local: { checksum: sha('local edit') } }, ['upload-version']],
    ['the checksum on the service, at the same version', { remote: { checksum: sha('remote edit') } }, ['download']],
    ['the version on the service, with the same bytes', { remote: { versionId: 'version:2' } }, ['record-base']],
    ['the asset on the service, with the same bytes', { remote: { assetId: 'asset:other' } }, ['record-base']],
    ['the spelling on disk', { local: { path: 'Docs/report.pdf' } }, ['move-remote', 'record-base']],
    ['the spelling on the service', { remote: { path: 'Docs/REPORT.pdf' } }, ['move-local', 'record-base']],
  ])('in %s: %j', (_field, change, expected) => {
    expect(kinds(plan(synced(change)).actions)).toEqual(expected);
  });
});

describe('plan: the three-way matrix (base present)', () => {
  it.each<[LocalCell, RemoteCell, ActionKind[]]>([
    ['absent', 'absent', ['forget-base']],
    ['absent', 'same', ['delete-remote']],
    ['absent', 'changed', ['download']],
    ['same', 'absent', ['delete-local']],
    ['same', 'same', []],
    ['same', 'changed', ['download']],
    ['changed', 'absent', ['upload-new']],
    ['changed', 'same', ['upload-version']],
    ['changed', 'changed', ['conflict']],
  ])('local %s, remote %s -> %j', (l, r, expected) => {
    const { actions, brake } = plan(cell(l, r));
    expect(kinds(actions)).toEqual(expected);
    for (const action of actions) expect(action.reason).not.toBe('');
    expect(brake).toBeNull();
  });
});

describe('plan: the three-way matrix (no base)', () => {
  it.each<[LocalCell, RemoteCell, ActionKind[]]>([
    ['absent', 'new', ['download']],
    ['new', 'absent', ['upload-new']],
    ['new', 'new', ['conflict']],
  ])('local %s, remote %s -> %j', (l, r, expected) => {
    const { actions } = plan(cell(l, r));
    expect(kinds(actions)).toEqual(expected);
    for (const action of actions) expect(action.reason).not.toBe('');
  });
});

describe('plan: what each cell carries', () => {
  const path = 'docs/report.pdf';

  it('a local deletion deletes the asset conditionally on the version last synced', () => {
    const action = only(plan(cell('absent', 'same')).actions, 'delete-remote');
    expect(action).toMatchObject({ path, assetId: assetOf(path), parentVersionId: versionOf('v1') });
  });

  it('a local edit is uploaded as a version of the asset, its parent the version it started from', () => {
    const action = only(plan(cell('changed', 'same')).actions, 'upload-version');
    expect(action).toMatchObject({ path, assetId: assetOf(path), parentVersionId: versionOf('v1') });
    expect(action.local.checksum).toBe(sha('local edit'));
  });

  it('a remote edit replaces the local file only if it still holds the synced bytes', () => {
    const action = only(plan(cell('same', 'changed')).actions, 'download');
    expect(action).toMatchObject({ path, replaces: sha('v1') });
    expect(action.remote.checksum).toBe(sha('remote edit'));
  });

  it('a remote edit wins over a local deletion: it is downloaded again', () => {
    const action = only(plan(cell('absent', 'changed')).actions, 'download');
    expect(action).toMatchObject({ path, replaces: null });
    expect(action.reason).toMatch(/wins over the deletion/);
  });

  it('a remote deletion moves an untouched local file to the trash, if still unchanged', () => {
    const action = only(plan(cell('same', 'absent')).actions, 'delete-local');
    expect(action).toMatchObject({ path, expectedChecksum: sha('v1') });
  });

  it('a remote deletion never deletes unsynced local work: the asset is restored with the edit as its version', () => {
    const action = only(plan(cell('changed', 'absent')).actions, 'upload-new');
    expect(action).toMatchObject({ path, revive: { assetId: assetOf(path), parentVersionId: versionOf('v1') } });
    expect(action.local.checksum).toBe(sha('local edit'));
    expect(action.reason).toMatch(/restored/);
    expect(kinds(plan(cell('changed', 'absent')).actions)).not.toContain('delete-local');
  });

  it('a remote deletion of the folder too: the local edit is uploaded as a new asset (the old one could not come back where it was)', () => {
    const i = cell('changed', 'absent');
    const gone = { ...i, folders: { ...i.folders, remote: new Map() } };
    const action = only(plan(gone).actions, 'upload-new');
    expect(action.revive).toBeUndefined();
    expect(action.reason).toMatch(/new asset/);
  });

  it('a file deleted on both sides only loses its base row', () => {
    expect(only(plan(cell('absent', 'absent')).actions, 'forget-base')).toMatchObject({ path });
  });

  it('a conflict keeps the remote version at the path and the local edit as an uploaded copy', () => {
    const action = only(plan(cell('changed', 'changed')).actions, 'conflict');
    const copyPath = `docs/report (conflicted copy Studio Mac ${STAMP}).pdf`;
    expect(action.path).toBe(path);
    expect(action.copyPath).toBe(copyPath);
    expect(action.base?.versionId).toBe(versionOf('v1'));
    const [rename, upload, download] = action.steps;
    expect(rename).toMatchObject({ kind: 'move-local', from: path, to: copyPath, basePath: null });
    expect(upload).toMatchObject({ kind: 'upload-new', path: copyPath });
    expect(upload.local).toMatchObject({ path: copyPath, checksum: sha('local edit') });
    expect(download).toMatchObject({ kind: 'download', path, replaces: null });
    expect(download.remote.checksum).toBe(sha('remote edit'));
    expect(action.reason).toContain(copyPath);
  });

  it('two new files with different content conflict too', () => {
    const action = only(plan(cell('new', 'new')).actions, 'conflict');
    expect(action.base).toBeNull();
    expect(action.steps[2].remote.checksum).toBe(sha('remote new'));
  });
});

describe('plan: equal checksums are never a conflict', () => {
  it('both sides edited to the same content: record the base, transfer nothing', () => {
    const p = 'a.txt';
    const remoteFile = remote(p, 'same edit', { versionNumber: 2 });
    const { actions } = plan(input({ local: [local(p, 'same edit')], base: [base(p, 'v1')], remote: [remoteFile] }));
    expect(kinds(actions)).toEqual(['record-base']);
    expect(only(actions, 'record-base').base).toMatchObject({
      path: p,
      assetId: assetOf(p),
      versionId: remoteFile.versionId,
      checksum: sha('same edit'),
    });
  });

  it('the same new file on both sides (no base): record the base', () => {
    const p = 'photo.jpg';
    const { actions } = plan(input({ local: [local(p, 'pixels')], remote: [remote(p, 'pixels')] }));
    expect(kinds(actions)).toEqual(['record-base']);
    expect(only(actions, 'record-base').base).toMatchObject({ assetId: assetOf(p), versionId: versionOf('pixels') });
  });

  it('a new remote version with the synced bytes: record its version id, transfer nothing', () => {
    const p = 'a.txt';
    const { actions } = plan(
      input({ local: [local(p, 'v1')], base: [base(p, 'v1')], remote: [remote(p, 'v1', { versionId: 'version:restamped' })] }),
    );
    expect(kinds(actions)).toEqual(['record-base']);
    expect(only(actions, 'record-base').base.versionId).toBe('version:restamped');
  });

  it('a local edit over such a version commits against the version the service has', () => {
    const p = 'a.txt';
    const { actions } = plan(
      input({ local: [local(p, 'edit')], base: [base(p, 'v1')], remote: [remote(p, 'v1', { versionId: 'version:restamped' })] }),
    );
    expect(only(actions, 'upload-version').parentVersionId).toBe('version:restamped');
  });

  it('another asset with the synced bytes at the path: record its ids, transfer nothing', () => {
    const p = 'a.txt';
    const { actions } = plan(input({ local: [local(p, 'v1')], base: [base(p, 'v1')], remote: [remote(p, 'v1', { assetId: 'asset:other' })] }));
    expect(kinds(actions)).toEqual(['record-base']);
    expect(only(actions, 'record-base').base.assetId).toBe('asset:other');
  });

  it('a local deletion never deletes another asset than the one synced: it is downloaded', () => {
    const p = 'a.txt';
    const { actions } = plan(input({ base: [base(p, 'v1')], remote: [remote(p, 'v1', { assetId: 'asset:other' })] }));
    expect(kinds(actions)).toEqual(['download']);
  });

  it('a file touched without a content change refreshes the base (no transfer)', () => {
    const p = 'a.txt';
    const { actions } = plan(
      input({ local: [local(p, 'v1', { mtimeNs: '1800000000000000000' })], base: [base(p, 'v1')], remote: [remote(p, 'v1')] }),
    );
    expect(kinds(actions)).toEqual(['record-base']);
    expect(only(actions, 'record-base').base.mtimeNs).toBe('1800000000000000000');
  });
});

// ---- moves ---------------------------------------------------------------------------------

describe('plan: moves', () => {
  const moveScenario = (s: Scenario): Action[] => [...plan(input(s)).actions];

  it('a local rename (same inode) renames the asset', () => {
    const b = base('a.txt', 'v1');
    const actions = moveScenario({ local: [local('b.txt', 'v1', { inode: b.inode })], base: [b], remote: [remote('a.txt', 'v1')] });
    expect(actions).toEqual([expect.objectContaining({ kind: 'move-remote', from: 'a.txt', to: 'b.txt', assetId: assetOf('a.txt'), basePath: 'a.txt' })]);
  });

  it('a local rename and edit renames the asset, then uploads a version at the new path', () => {
    const b = base('a.txt', 'v1');
    const actions = moveScenario({ local: [local('sub/b.txt', 'v2', { inode: b.inode })], base: [b], remote: [remote('a.txt', 'v1')], localFolders: ['sub'], remoteFolders: ['sub'] });
    expect(kinds(actions)).toEqual(['move-remote', 'upload-version', 'record-folder-base']);
    expect(only(actions, 'upload-version')).toMatchObject({ path: 'sub/b.txt', assetId: assetOf('a.txt'), parentVersionId: versionOf('v1') });
  });

  it('a copy-and-delete (other inode, same checksum and size) is a move; the base learns the inode', () => {
    const actions = moveScenario({ local: [local('b.txt', 'v1', { inode: 42 })], base: [base('a.txt', 'v1')], remote: [remote('a.txt', 'v1')] });
    expect(kinds(actions)).toEqual(['move-remote', 'record-base']);
    expect(only(actions, 'record-base').base).toMatchObject({ path: 'b.txt', inode: 42, assetId: assetOf('a.txt') });
  });

  it('an ambiguous copy (two deleted files with those bytes) is no move', () => {
    const actions = moveScenario({
      local: [local('c.txt', 'v1', { inode: 42 })],
      base: [base('a.txt', 'v1'), base('b.txt', 'v1')],
      remote: [remote('a.txt', 'v1'), remote('b.txt', 'v1')],
    });
    expect(kinds(actions)).toEqual(['delete-remote', 'delete-remote', 'upload-new']);
  });

  it('a remote move (same asset id elsewhere) moves the local file', () => {
    const actions = moveScenario({ local: [local('a.txt', 'v1')], base: [base('a.txt', 'v1')], remote: [remote('b.txt', 'v1', { assetId: assetOf('a.txt') })] });
    expect(actions).toEqual([expect.objectContaining({ kind: 'move-local', from: 'a.txt', to: 'b.txt', basePath: 'a.txt' })]);
  });

  it('a remote move and edit moves the local file, then downloads over it', () => {
    const actions = moveScenario({ local: [local('a.txt', 'v1')], base: [base('a.txt', 'v1')], remote: [remote('b.txt', 'v2', { assetId: assetOf('a.txt') })] });
    expect(kinds(actions)).toEqual(['move-local', 'download']);
    expect(only(actions, 'download')).toMatchObject({ path: 'b.txt', replaces: sha('v1') });
  });

  it('a remote move with a local edit moves the file, then uploads the edit', () => {
    const actions = moveScenario({ local: [local('a.txt', 'edit')], base: [base('a.txt', 'v1')], remote: [remote('b.txt', 'v1', { assetId: assetOf('a.txt') })] });
    expect(kinds(actions)).toEqual(['move-local', 'upload-version']);
    expect(only(actions, 'upload-version')).toMatchObject({ path: 'b.txt', parentVersionId: versionOf('v1') });
  });

  it('the same move on both sides only moves the base row', () => {
    const b = base('a.txt', 'v1');
    const actions = moveScenario({ local: [local('b.txt', 'v1', { inode: b.inode })], base: [b], remote: [remote('b.txt', 'v1', { assetId: b.assetId })] });
    expect(kinds(actions)).toEqual(['forget-base', 'record-base']);
    expect(only(actions, 'forget-base').path).toBe('a.txt');
    expect(only(actions, 'record-base').base).toMatchObject({ path: 'b.txt', assetId: b.assetId });
  });

  it('different moves on both sides: the service location wins', () => {
    const b = base('a.txt', 'v1');
    const actions = moveScenario({ local: [local('local.txt', 'v1', { inode: b.inode })], base: [b], remote: [remote('remote.txt', 'v1', { assetId: b.assetId })] });
    expect(actions).toEqual([expect.objectContaining({ kind: 'move-local', from: 'local.txt', to: 'remote.txt', basePath: 'a.txt' })]);
  });

  it('moved locally but deleted on the service: the file is uploaded as a new asset', () => {
    const b = base('a.txt', 'v1');
    const actions = moveScenario({ local: [local('b.txt', 'v1', { inode: b.inode })], base: [b] });
    expect(kinds(actions)).toEqual(['forget-base', 'upload-new']);
  });

  it('moved on the service but deleted locally: the deletion follows the asset', () => {
    const actions = moveScenario({ base: [base('a.txt', 'v1')], remote: [remote('b.txt', 'v1', { assetId: assetOf('a.txt') })] });
    expect(kinds(actions)).toEqual(['forget-base', 'delete-remote']);
    expect(only(actions, 'delete-remote')).toMatchObject({ path: 'b.txt', assetId: assetOf('a.txt') });
    expect(only(actions, 'forget-base').path).toBe('a.txt');
  });

  it('moved on the service, deleted locally and locked: the base row follows the asset and waits', () => {
    const actions = moveScenario({ base: [base('a.txt', 'v1')], remote: [remote('b.txt', 'v1', { assetId: assetOf('a.txt'), lockedByUserId: 'user-other' })] });
    expect(steps(actions)).toEqual(['forget-base a.txt', 'locked b.txt', 'record-base b.txt']);
    expect(only(actions, 'record-base').base).toMatchObject({ path: 'b.txt', assetId: assetOf('a.txt'), versionId: versionOf('v1') });
  });

  it('a chain of moves (b -> c, then a -> b) only moves what does not depend on the order', () => {
    const actions = moveScenario({
      local: [local('a.txt', 'A'), local('b.txt', 'B')],
      base: [base('a.txt', 'A'), base('b.txt', 'B')],
      remote: [remote('b.txt', 'A', { assetId: assetOf('a.txt') }), remote('c.txt', 'B', { assetId: assetOf('b.txt') })],
    });
    // a -> b falls back to content: a.txt goes to the trash, its bytes come down at b.txt.
    expect(steps(actions)).toEqual(['move-local c.txt', 'delete-local a.txt', 'download b.txt']);
    expect(only(actions, 'move-local').from).toBe('b.txt');
  });

  it('a remote move onto a path a new local file holds overwrites nothing', () => {
    const actions = moveScenario({
      local: [local('a.txt', 'v1'), local('b.txt', 'mine')],
      base: [base('a.txt', 'v1')],
      remote: [remote('b.txt', 'v1', { assetId: assetOf('a.txt') })],
    });
    expect(kinds(actions)).toEqual(['delete-local', 'conflict']);
    expect(only(actions, 'conflict').copyPath).toBe(`b (conflicted copy Studio Mac ${STAMP}).txt`);
  });

  it('a remote move into a folder spelled differently on disk: the folder takes the service\'s spelling first', () => {
    const actions = moveScenario({
      local: [local('a.txt', 'v1')],
      base: [base('a.txt', 'v1')],
      remote: [remote('Docs/a.txt', 'v1', { assetId: assetOf('a.txt') })],
      localFolders: ['docs'],
      remoteFolders: ['Docs'],
    });
    expect(actions).toEqual([
      expect.objectContaining({ kind: 'move-local', item: 'folder', from: 'docs', to: 'Docs' }),
      expect.objectContaining({ kind: 'move-local', from: 'a.txt', to: 'Docs/a.txt', basePath: 'a.txt' }),
    ]);
  });
});

describe('plan: conflicted copies this client made', () => {
  const original = 'docs/report.pdf';
  const copy = `docs/report (conflicted copy Studio Mac ${STAMP}).pdf`;
  // The conflict stopped after the edit moved aside: the original's base row still names the
  // inode the copy now has, and the service holds the colleague's version.
  const stopped = (ownCopies: ReadonlyMap<string, string>): PlannerInput => ({
    ...input({
      local: [local(copy, 'my edit', { inode: inodeOf(original) })],
      base: [base(original, 'v1')],
      remote: [remote(original, 'their edit', { folderId: folderId('docs') })],
      localFolders: ['docs'],
      baseFolders: ['docs'],
      remoteFolders: ['docs'],
    }),
    ownCopies,
  });

  it('are never taken for a rename of the original: the copy is uploaded and the original downloaded', () => {
    const actions = plan(stopped(new Map([[pathKey(copy), original]]))).actions;
    expect(steps(actions).sort()).toEqual([`download ${original}`, `upload-new ${copy}`]);
    expect(only(actions, 'upload-new')).toMatchObject({ path: copy, copyOf: original });
  });

  it('(the same file not known as a copy of ours reads as a rename by the user)', () => {
    expect(kinds(plan(stopped(new Map())).actions)).toContain('move-remote');
  });

  it('in a conflict of their own are named after the original, never as a copy of a copy', () => {
    const later = new Date(NOW.getTime() + 60_000);
    const action = only(
      plan({
        ...input({ local: [local(copy, 'my edit')], remote: [remote(copy, 'a colleague took the name')], localFolders: ['docs'], remoteFolders: ['docs'] }),
        now: later,
        ownCopies: new Map([[pathKey(copy), original]]),
      }).actions,
      'conflict',
    );
    expect(action.copyPath).toBe('docs/report (conflicted copy Studio Mac 2024-03-05 140809).pdf');
    expect(action.steps[1]).toMatchObject({ kind: 'upload-new', copyOf: original });
  });
});

describe('plan: folder renames and moves', () => {
  /** "old" with two files, as synced; `folders` keeps the folder's id wherever it goes. */
  const synced = [base('old/a.txt', 'a'), base('old/sub/b.txt', 'b')];
  const content = (path: string): string => (path.endsWith('a.txt') ? 'a' : 'b');
  const movedTo = (to: string) => (b: BaseFile) => local(b.path.replace('old/', `${to}/`), content(b.path), { inode: b.inode });
  const folderInput = (s: { local: LocalFile[]; localFolders: string[]; remote?: RemoteFile[]; remoteFolders?: Array<[string, string]> }): PlannerInput => {
    const i = input({ local: s.local, base: synced, remote: s.remote ?? synced.map((b) => remote(b.path, content(b.path))), localFolders: s.localFolders, baseFolders: ['old', 'old/sub'] });
    // The service's folders under their ids: [path, id of the base folder it is].
    const remoteFolders = s.remoteFolders ?? [['old', 'old'], ['old/sub', 'old/sub']];
    const folders = remoteFolders.map(([path, id]): RemoteFolder => ({ path, folderId: folderId(id), parentId: null }));
    return { ...i, folders: { ...i.folders, remote: byKey(folders) } };
  };

  it('a folder renamed locally is renamed on the service in one move, alone in its plan', () => {
    const { actions, summary } = plan(folderInput({ local: synced.map(movedTo('new')), localFolders: ['new', 'new/sub'] }));
    expect(actions).toEqual([
      { kind: 'move-remote', item: 'folder', from: 'old', to: 'new', folderId: folderId('old'), reason: 'folder moved locally from "old" to "new"' },
    ]);
    expect(summary.counts['delete-remote'] + summary.counts['delete-remote-folder']).toBe(0);
  });

  it('an empty folder renamed locally is renamed on the service, found by its inode alone', () => {
    const i = folderInput({ local: synced.map(movedTo('old')), localFolders: ['old', 'old/sub'], remoteFolders: [['old', 'old'], ['old/sub', 'old/sub'], ['Drafts', 'Drafts']] });
    const withEmpty: PlannerInput = {
      ...i,
      folders: {
        ...i.folders,
        local: new Map([...i.folders.local, ['drafts 2025', { path: 'Drafts 2025', inode: 77 }]]),
        base: new Map([...i.folders.base, ['drafts', { path: 'Drafts', folderId: folderId('Drafts'), inode: 77 }]]),
      },
    };
    expect(plan(withEmpty).actions).toEqual([
      { kind: 'move-remote', item: 'folder', from: 'Drafts', to: 'Drafts 2025', folderId: folderId('Drafts'), reason: 'folder moved locally from "Drafts" to "Drafts 2025"' },
    ]);
    // Another folder with another inode is a folder deleted here and one made.
    const other: PlannerInput = { ...withEmpty, folders: { ...withEmpty.folders, local: new Map([...i.folders.local, ['drafts 2025', { path: 'Drafts 2025', inode: 78 }]]) } };
    expect(steps(plan(other).actions).sort()).toEqual(['create-remote-folder Drafts 2025', 'delete-remote-folder Drafts']);
  });

  it('a folder moved locally into a new local folder: that folder is made on the service first, alone in the plan', () => {
    const { actions, movesFirst } = plan(folderInput({ local: synced.map(movedTo('Archive/2025/old')), localFolders: ['Archive', 'Archive/2025', 'Archive/2025/old', 'Archive/2025/old/sub'] }));
    expect(steps(actions)).toEqual(['create-remote-folder Archive', 'create-remote-folder Archive/2025']);
    expect(movesFirst).toBe(true);
  });

  it('a folder renamed locally with a subfolder renamed too: the folder moves first, the subfolder in the next plan', () => {
    const local1 = [local('new/a.txt', 'a', { inode: inodeOf('old/a.txt') }), local('new/sub2/b.txt', 'b', { inode: inodeOf('old/sub/b.txt') })];
    expect(steps(plan(folderInput({ local: local1, localFolders: ['new', 'new/sub2'] })).actions)).toEqual(['move-remote new']);
  });

  it('a folder moved locally into another synced folder is moved there on the service', () => {
    const i = folderInput({ local: [...synced.map(movedTo('keep/old')), local('keep/k.txt', 'k')], localFolders: ['keep', 'keep/old', 'keep/old/sub'] });
    const withKeep: PlannerInput = {
      ...i,
      files: { ...i.files, base: new Map([...i.files.base, ['keep/k.txt', base('keep/k.txt', 'k')]]), remote: new Map([...i.files.remote, ['keep/k.txt', remote('keep/k.txt', 'k')]]) },
      folders: {
        ...i.folders,
        base: new Map([...i.folders.base, ['keep', { path: 'keep', folderId: folderId('keep') }]]),
        remote: new Map([...i.folders.remote, ['keep', { path: 'keep', folderId: folderId('keep'), parentId: null }]]),
      },
    };
    expect(steps(plan(withKeep).actions)).toEqual(['move-remote keep/old']);
  });

  it('a folder renamed on the service is renamed on disk in one move, the folder below it waits for the next plan', () => {
    const { actions } = plan(
      folderInput({
        local: synced.map((b) => local(b.path, content(b.path))),
        localFolders: ['old', 'old/sub'],
        remote: synced.map((b) => remote(b.path.replace('old/', 'new/'), content(b.path), { assetId: assetOf(b.path) })),
        remoteFolders: [['new', 'old'], ['new/sub', 'old/sub']],
      }),
    );
    expect(actions).toEqual([
      { kind: 'move-local', item: 'folder', from: 'old', to: 'new', folderId: folderId('old'), reason: 'folder moved on the service from "old" to "new"' },
    ]);
  });

  it('once moved, the next plan has nothing left to do', () => {
    const moved = synced.map((b) => ({ ...b, path: b.path.replace('old/', 'new/') }));
    const i = input({
      local: moved.map((b) => local(b.path, content(b.path), { inode: b.inode })),
      base: moved,
      remote: moved.map((b) => remote(b.path, content(b.path), { assetId: b.assetId })),
      localFolders: ['new', 'new/sub'],
      remoteFolders: [],
    });
    const folders = (entries: Array<[string, string]>) => new Map(entries.map(([path, id]) => [path, { path, folderId: folderId(id), parentId: null }]));
    const after = { ...i, folders: { ...i.folders, base: folders([['new', 'old'], ['new/sub', 'old/sub']]), remote: folders([['new', 'old'], ['new/sub', 'old/sub']]) } };
    expect(plan(after).actions).toEqual([]);
  });

  it('moved on both sides to different places: no folder move, the files follow the service', () => {
    const { actions } = plan(
      folderInput({
        local: synced.map(movedTo('mine')),
        localFolders: ['mine', 'mine/sub'],
        remote: synced.map((b) => remote(b.path.replace('old/', 'theirs/'), content(b.path), { assetId: assetOf(b.path) })),
        remoteFolders: [['theirs', 'old'], ['theirs/sub', 'old/sub']],
      }),
    );
    expect(actions.some((a) => 'item' in a && a.item === 'folder')).toBe(false);
    expect(actions.filter((a) => a.kind === 'move-local').map((a) => (a as { to: string }).to)).toEqual(['theirs/a.txt', 'theirs/sub/b.txt']);
  });

  it('a destination taken on the side that follows: that folder does not move (its subfolder may, into it)', () => {
    const i = folderInput({
      local: synced.map((b) => local(b.path, content(b.path))),
      localFolders: ['old', 'old/sub', 'new'],
      remote: synced.map((b) => remote(b.path.replace('old/', 'new/'), content(b.path), { assetId: assetOf(b.path) })),
      remoteFolders: [['new', 'old'], ['new/sub', 'old/sub']],
    });
    expect(steps(plan(i).actions)).toEqual(['move-local new/sub']);
  });

  it('files that went different ways locally: the folder does not move, its subfolder does (into its new folder, made first)', () => {
    const { actions } = plan(
      folderInput({ local: [local('x/a.txt', 'a', { inode: inodeOf('old/a.txt') }), local('y/sub/b.txt', 'b', { inode: inodeOf('old/sub/b.txt') })], localFolders: ['x', 'y', 'y/sub'] }),
    );
    expect(steps(actions)).toEqual(['create-remote-folder y']);
  });

  it('a folder move that failed lately is left to the per-file reconciliation until it is due again', () => {
    const i = { ...folderInput({ local: synced.map(movedTo('new')), localFolders: ['new', 'new/sub'] }), failing: new Set(['new']) };
    expect(steps(plan(i).actions)).toEqual(['create-remote-folder new', 'create-remote-folder new/sub', 'move-remote new/a.txt', 'move-remote new/sub/b.txt', 'delete-remote-folder old/sub', 'delete-remote-folder old']);
  });

  it('another folder at the old path on the service (a new one, another id) is no move', () => {
    const { actions } = plan(
      input({
        local: [local('old/a.txt', 'a')],
        base: [base('old/a.txt', 'a')],
        remote: [remote('new/a.txt', 'a', { assetId: assetOf('old/a.txt') })],
        localFolders: ['old'],
        baseFolders: ['old'],
        remoteFolders: ['new'],
      }),
    );
    expect(steps(actions)).toEqual(['create-local-folder new', 'move-local new/a.txt', 'delete-local-folder old']);
  });
});

describe('plan: case-only renames', () => {
  it('renamed locally: the asset is renamed', () => {
    const { actions } = plan(input({ local: [local('report.pdf', 'v1')], base: [base('Report.pdf', 'v1')], remote: [remote('Report.pdf', 'v1')] }));
    expect(kinds(actions)).toEqual(['move-remote', 'record-base']);
    expect(only(actions, 'move-remote')).toMatchObject({ from: 'Report.pdf', to: 'report.pdf', basePath: 'Report.pdf' });
    expect(only(actions, 'record-base').base.path).toBe('report.pdf');
  });

  it('renamed on the service: the local file is renamed', () => {
    const { actions } = plan(input({ local: [local('Report.pdf', 'v1')], base: [base('Report.pdf', 'v1')], remote: [remote('REPORT.pdf', 'v1')] }));
    expect(kinds(actions)).toEqual(['move-local', 'record-base']);
    expect(only(actions, 'move-local')).toMatchObject({ from: 'Report.pdf', to: 'REPORT.pdf' });
  });

  it('renamed differently on both sides: the service name wins', () => {
    const { actions } = plan(input({ local: [local('report.pdf', 'v1')], base: [base('Report.pdf', 'v1')], remote: [remote('REPORT.pdf', 'v1')] }));
    expect(only(actions, 'move-local')).toMatchObject({ from: 'report.pdf', to: 'REPORT.pdf' });
  });

  it('renamed locally and edited: rename the asset, then upload the edit', () => {
    const { actions } = plan(input({ local: [local('report.pdf', 'v2')], base: [base('Report.pdf', 'v1')], remote: [remote('Report.pdf', 'v1')] }));
    expect(kinds(actions)).toEqual(['move-remote', 'upload-version']);
    expect(only(actions, 'upload-version').path).toBe('report.pdf');
  });

  it('a parent folder spelled differently is not a file rename: the folder is renamed, the file only re-recorded', () => {
    const { actions } = plan(
      input({
        local: [local('Docs/a.txt', 'v1')],
        base: [base('Docs/a.txt', 'v1')],
        remote: [remote('docs/a.txt', 'v1')],
        localFolders: ['Docs'],
        baseFolders: ['Docs'],
        remoteFolders: ['docs'],
      }),
    );
    expect(steps(actions)).toEqual(['move-local docs', 'record-base docs/a.txt']);
    expect(only(actions, 'move-local')).toMatchObject({ item: 'folder', from: 'Docs', to: 'docs' });
  });

  it('a new remote file in a folder renamed on the service lands in the folder once renamed', () => {
    const { actions } = plan(input({ remote: [remote('docs/new.txt', 'x')], localFolders: ['Docs'], baseFolders: ['Docs'], remoteFolders: ['docs'] }));
    expect(steps(actions)).toEqual(['move-local docs', 'download docs/new.txt']);
  });
});

// ---- case-only folder renames --------------------------------------------------------------

describe('plan: case-only folder renames', () => {
  /**
   * "Brand" holding a file and a subfolder with a file, synced; then each side spells the
   * folder its own way. The files are the same bytes everywhere: nothing is to transfer.
   */
  const brand = (spelling: { local: string; base: string | null; remote: string }, extra: Scenario = {}): PlannerInput => {
    const paths = (top: string): string[] => [`${top}/guide.pdf`, `${top}/Logos/logo.svg`];
    const remoteIds = (path: string): Partial<RemoteFile> => ({ assetId: assetOf(path), folderId: folderId(parentOfPath(path)) });
    return input({
      local: [...paths(spelling.local).map((p) => local(p, p.toLowerCase())), ...(extra.local ?? [])],
      base: [...(spelling.base === null ? [] : paths(spelling.base).map((p) => base(p, p.toLowerCase()))), ...(extra.base ?? [])],
      remote: [...paths(spelling.remote).map((p) => remote(p, p.toLowerCase(), remoteIds(p))), ...(extra.remote ?? [])],
      localFolders: [spelling.local, `${spelling.local}/Logos`, ...(extra.localFolders ?? [])],
      baseFolders: spelling.base === null ? [] : [spelling.base, `${spelling.base}/Logos`],
      remoteFolders: [spelling.remote, `${spelling.remote}/Logos`, ...(extra.remoteFolders ?? [])],
    });
  };
  const parentOfPath = (path: string): string => path.slice(0, path.lastIndexOf('/'));
  /** The base rows of what is in the folder, re-spelled; in the bookkeeping phase's order (by path). */
  const recorded = ['record-folder-base brand/Logos', 'record-base brand/Logos/logo.svg', 'record-base brand/guide.pdf'];

  it.each<[string, { local: string; base: string | null; remote: string }, string[]]>([
    ['renamed locally: the service folder is renamed', { local: 'brand', base: 'Brand', remote: 'Brand' }, ['move-remote brand', ...recorded]],
    ['renamed on the service: the local folder is renamed', { local: 'Brand', base: 'Brand', remote: 'brand' }, ['move-local brand', ...recorded]],
    ['renamed alike on both sides: only the base learns the name', { local: 'brand', base: 'Brand', remote: 'brand' }, ['record-folder-base brand', ...recorded]],
    ['renamed differently on both sides: the service spelling wins', { local: 'BRAND', base: 'Brand', remote: 'brand' }, ['move-local brand', ...recorded]],
    ['never synced, spelled differently: the service spelling wins', { local: 'BRAND', base: null, remote: 'brand' }, ['move-local brand', ...recorded]],
    ['spelled alike everywhere: nothing to do', { local: 'Brand', base: 'Brand', remote: 'Brand' }, []],
  ])('%s', (_name, spelling, expected) => {
    const { actions, brake } = plan(brand(spelling));
    expect(steps(actions)).toEqual(expected);
    // No transfer, no deletion, no file moved on its own: only the folder, once.
    expect(kinds(actions).filter((k) => !k.startsWith('record-'))).toEqual(expected.some((e) => e.startsWith('move-')) ? [expected[0]?.split(' ')[0]] : []);
    expect(brake).toBeNull();
    for (const action of actions) expect(action.reason).not.toBe('');
  });

  it('a rename carries the folder id and the spellings, its parent unchanged', () => {
    const { actions } = plan(brand({ local: 'brand', base: 'Brand', remote: 'Brand' }));
    expect(only(actions, 'move-remote')).toEqual({
      kind: 'move-remote',
      item: 'folder',
      from: 'Brand',
      to: 'brand',
      folderId: folderId('Brand'),
      reason: 'folder renamed to "brand" locally',
    });
    const fromService = plan(brand({ local: 'BRAND', base: 'Brand', remote: 'brand' })).actions;
    expect(only(fromService, 'move-local')).toMatchObject({ item: 'folder', from: 'BRAND', to: 'brand', folderId: folderId('brand') });
    expect(only(fromService, 'move-local').reason).toContain('nothing is lost');
  });

  it('the renamed folder\'s own base row is written by the rename, not recorded beside it', () => {
    // Recorded while the rename failed, the new spelling would read as a rename the other way.
    for (const spelling of [
      { local: 'brand', base: 'Brand', remote: 'Brand' },
      { local: 'Brand', base: 'Brand', remote: 'brand' },
    ]) {
      const { actions } = plan(brand(spelling));
      expect(actions.filter((a) => a.kind === 'record-folder-base' && a.base.path === 'brand')).toEqual([]);
    }
  });

  it('a subfolder renamed alone: only it is renamed', () => {
    const { actions } = plan(
      input({
        local: [local('Brand/logos/logo.svg', 'l')],
        base: [base('Brand/Logos/logo.svg', 'l')],
        remote: [remote('Brand/Logos/logo.svg', 'l')],
        localFolders: ['Brand', 'Brand/logos'],
        baseFolders: ['Brand', 'Brand/Logos'],
        remoteFolders: ['Brand', 'Brand/Logos'],
      }),
    );
    expect(steps(actions)).toEqual(['move-remote Brand/logos', 'record-base Brand/logos/logo.svg']);
  });

  it('a folder and its subfolder renamed on the service: renamed shallow to deep, the deeper one named under the new parent', () => {
    const { actions } = plan(
      input({
        local: [local('Brand/Logos/logo.svg', 'l')],
        base: [base('Brand/Logos/logo.svg', 'l')],
        remote: [remote('brand/logos/logo.svg', 'l')],
        localFolders: ['Brand', 'Brand/Logos'],
        baseFolders: ['Brand', 'Brand/Logos'],
        remoteFolders: ['brand', 'brand/logos'],
      }),
    );
    expect(actions.slice(0, 2)).toEqual([
      expect.objectContaining({ kind: 'move-local', item: 'folder', from: 'Brand', to: 'brand' }),
      expect.objectContaining({ kind: 'move-local', item: 'folder', from: 'brand/Logos', to: 'brand/logos' }),
    ]);
    expect(steps(actions.slice(2))).toEqual(['record-base brand/logos/logo.svg']);
  });

  it('renamed on the service with changes inside: the rename runs first, then everything lands in the new spelling', () => {
    const { actions } = plan(
      brand(
        { local: 'Brand', base: 'Brand', remote: 'brand' },
        { remote: [remote('brand/Fonts/new.otf', 'font')], remoteFolders: ['brand/Fonts'], local: [local('Brand/mine.txt', 'mine')] },
      ),
    );
    expect(steps(actions).filter((s) => !s.startsWith('record-'))).toEqual([
      'move-local brand',
      'create-local-folder brand/Fonts',
      'download brand/Fonts/new.otf',
      'upload-new brand/mine.txt',
    ]);
  });

  it('renamed locally with a new subfolder inside: the service folder is renamed before the subfolder is made in it', () => {
    const { actions } = plan(
      brand({ local: 'brand', base: 'Brand', remote: 'Brand' }, { local: [local('brand/New/x.txt', 'x')], localFolders: ['brand/New'] }),
    );
    expect(steps(actions).filter((s) => !s.startsWith('record-'))).toEqual(['move-remote brand', 'create-remote-folder brand/New', 'upload-new brand/New/x.txt']);
  });

  it('renamed locally and a file in it edited: the folder is renamed, the edit uploaded as a version', () => {
    const { actions } = plan(
      input({
        local: [local('brand/guide.pdf', 'edit')],
        base: [base('Brand/guide.pdf', 'v1')],
        remote: [remote('Brand/guide.pdf', 'v1')],
        localFolders: ['brand'],
        baseFolders: ['Brand'],
        remoteFolders: ['Brand'],
      }),
    );
    expect(steps(actions)).toEqual(['move-remote brand', 'upload-version brand/guide.pdf']);
    expect(only(actions, 'upload-version')).toMatchObject({ assetId: assetOf('Brand/guide.pdf'), parentVersionId: versionOf('v1') });
  });

  it('renamed on the service and a file in it edited locally: the folder is renamed, the edit uploaded in it', () => {
    const { actions } = plan(
      input({
        local: [local('Brand/guide.pdf', 'edit')],
        base: [base('Brand/guide.pdf', 'v1')],
        remote: [remote('brand/guide.pdf', 'v1')],
        localFolders: ['Brand'],
        baseFolders: ['Brand'],
        remoteFolders: ['brand'],
      }),
    );
    expect(steps(actions)).toEqual(['move-local brand', 'upload-version brand/guide.pdf']);
    expect(only(actions, 'upload-version').local.path).toBe('brand/guide.pdf');
  });

  it('a folder on one side only is never renamed', () => {
    const { actions } = plan(input({ localFolders: ['brand'], baseFolders: ['Brand'] }));
    expect(kinds(actions)).not.toContain('move-local');
    expect(kinds(actions)).not.toContain('move-remote');
  });
});

// ---- conflicted copy names -----------------------------------------------------------------

describe('conflictCopyPath', () => {
  const free = (): boolean => false;

  it.each([
    ['docs/report.pdf', `docs/report (conflicted copy Studio Mac ${STAMP}).pdf`],
    ['a.tar.gz', `a.tar (conflicted copy Studio Mac ${STAMP}).gz`],
    ['Makefile', `Makefile (conflicted copy Studio Mac ${STAMP})`],
    ['.bashrc', `.bashrc (conflicted copy Studio Mac ${STAMP})`],
    ['cfg/.env.local', `cfg/.env (conflicted copy Studio Mac ${STAMP}).local`],
  ])('%s -> %s', (path, expected) => {
    expect(conflictCopyPath(path, 'Studio Mac', NOW, free)).toBe(expected);
  });

  it('writes the time in UTC, to the second', () => {
    const at = new Date(Date.UTC(1999, 11, 31, 23, 59, 58, 999));
    expect(conflictCopyPath('a.txt', 'pc', at, free)).toBe('a (conflicted copy pc 1999-12-31 235958).txt');
  });

  it('makes the device name safe in a file name', () => {
    expect(conflictCopyPath('a.txt', ' Bob/PC: 2 ', NOW, free)).toBe(`a (conflicted copy Bob_PC_ 2 ${STAMP}).txt`);
    expect(conflictCopyPath('a.txt', '', NOW, free)).toBe(`a (conflicted copy unknown device ${STAMP}).txt`);
  });

  it('numbers the copy when the name is taken (compared case-insensitively)', () => {
    const taken = new Set([pathKey(`a (conflicted copy Studio Mac ${STAMP}).txt`), pathKey(`a (conflicted copy Studio Mac ${STAMP} 2).txt`)]);
    expect(conflictCopyPath('A.txt', 'studio mac', NOW, (key) => taken.has(key))).toBe(`A (conflicted copy studio mac ${STAMP} 3).txt`);
  });

  it('shortens a long stem so that the name still fits, keeping the extension', () => {
    const copy = conflictCopyPath(`${'é'.repeat(120)}.psd`, 'Studio Mac', NOW, free);
    expect(Buffer.byteLength(copy)).toBeLessThanOrEqual(MAX_NAME_BYTES);
    expect(copy.endsWith(`(conflicted copy Studio Mac ${STAMP}).psd`)).toBe(true);
  });

  it('in a plan, a copy name is unique against both sides and against other copies', () => {
    const first = `a (conflicted copy Studio Mac ${STAMP}).txt`;
    const { actions } = plan(
      input({
        local: [local('a.txt', 'mine'), local('A.TXT.txt', 'x')],
        remote: [remote('a.txt', 'theirs'), remote(first, 'older copy')],
      }),
    );
    const conflicts = actions.filter((a): a is Conflict => a.kind === 'conflict');
    expect(conflicts.map((c) => c.copyPath)).toEqual([`a (conflicted copy Studio Mac ${STAMP} 2).txt`]);
    const twice = plan(
      input({ local: [local('x/a.txt', '1'), local('x/b.txt', '1b')], remote: [remote('x/a.txt', '2'), remote('x/b.txt', '2b')], localFolders: ['x'], remoteFolders: ['x'] }),
    ).actions.filter((a): a is Conflict => a.kind === 'conflict');
    expect(new Set(twice.map((c) => pathKey(c.copyPath))).size).toBe(2);
  });
});

// ---- locks ---------------------------------------------------------------------------------

describe('plan: locks', () => {
  const p = 'a.psd';

  it('a local edit of an asset locked by someone else waits: no upload', () => {
    const { actions } = plan(input({ local: [local(p, 'edit')], base: [base(p, 'v1')], remote: [remote(p, 'v1', { lockedByUserId: 'user-other' })] }));
    expect(kinds(actions)).toEqual(['locked']);
    expect(only(actions, 'locked')).toMatchObject({ path: p, assetId: assetOf(p), lockedByUserId: 'user-other', blocked: 'upload-version' });
  });

  it('a lock held by this user is no lock', () => {
    const { actions } = plan(input({ local: [local(p, 'edit')], base: [base(p, 'v1')], remote: [remote(p, 'v1', { lockedByUserId: SELF })] }));
    expect(kinds(actions)).toEqual(['upload-version']);
  });

  it('a local deletion of an asset locked by someone else waits too', () => {
    const { actions } = plan(input({ base: [base(p, 'v1')], remote: [remote(p, 'v1', { lockedByUserId: 'user-other' })] }));
    expect(only(actions, 'locked').blocked).toBe('delete-remote');
  });

  it('a lock does not stop downloads', () => {
    const { actions } = plan(input({ local: [local(p, 'v1')], base: [base(p, 'v1')], remote: [remote(p, 'v2', { lockedByUserId: 'user-other' })] }));
    expect(kinds(actions)).toEqual(['download']);
  });
});

// ---- mass-delete brake ---------------------------------------------------------------------

describe('plan: mass-delete brake', () => {
  const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `f${String(i).padStart(2, '0')}.txt`);

  /** `total` synced files, of which the first `deleted` are gone on `side`. */
  function deletions(side: 'local' | 'remote', total: number, deleted: number, allowMassDelete?: boolean): PlannerInput {
    const all = names(total);
    const kept = (i: number): boolean => i >= deleted;
    return input({
      base: all.map((n) => base(n, n)),
      local: all.filter((_, i) => side === 'remote' || kept(i)).map((n) => local(n, n)),
      remote: all.filter((_, i) => side === 'local' || kept(i)).map((n) => remote(n, n)),
      ...(allowMassDelete === undefined ? {} : { allowMassDelete }),
    });
  }

  it('brakes when more than half of the synced files would be deleted on the service', () => {
    const { brake, summary } = plan(deletions('local', 20, 11));
    expect(summary.counts['delete-remote']).toBe(11);
    expect(brake).toMatchObject({ side: 'remote', deleteCount: 11, total: 20 });
    expect(brake?.reason).toMatch(/11 of 20/);
  });

  it('brakes when more than half would be deleted locally', () => {
    expect(plan(deletions('remote', 20, 20)).brake).toMatchObject({ side: 'local', deleteCount: 20, total: 20 });
  });

  it.each([
    ['exactly half', 20, 10],
    ['all of a small folder', 8, 8],
    ['a few of many', 100, 30],
  ])('does not brake for %s', (_label, total, deleted) => {
    expect(plan(deletions('local', total, deleted)).brake).toBeNull();
  });

  it('counts the deletions of recent cycles with the plan\'s: a deletion that came in bursts is braked as a whole', () => {
    // 25 of 64 went a minute ago (under half); 15 more now make 40 of the 64 synced before.
    const now = { ...deletions('local', 39, 15), recentDeletes: { local: 0, remote: 25 } };
    const { brake } = plan(now);
    expect(brake).toMatchObject({ side: 'remote', deleteCount: 40, total: 64 });
    expect(brake?.reason).toMatch(/15 more synced files on the service: 40 of 64 within a few minutes/);
    // The same 15 alone, or after deletions on the other side only, are no mass deletion.
    expect(plan(deletions('local', 39, 15)).brake).toBeNull();
    expect(plan({ ...deletions('local', 39, 15), recentDeletes: { local: 25, remote: 0 } }).brake).toBeNull();
  });

  it('a braked plan runs no deletion, and holds back exactly the deletions it decided', () => {
    // 12 of 20 synced files and their folder are gone here; a new file waits to be uploaded and
    // a file changed on the service waits to be downloaded: those still run.
    const all = names(20).map((n) => `kept/${n}`);
    const gone = (i: number): boolean => i < 12;
    const sides = {
      base: [...all.map((n) => base(n, n)), base('old/a.txt', 'a')],
      local: [...all.filter((_, i) => !gone(i)).map((n) => local(n, n)), local('new.txt', 'new')],
      remote: [...all.map((n, i) => (i === 19 ? remote(n, 'edited') : remote(n, n))), remote('old/a.txt', 'a')],
      localFolders: ['kept'],
      baseFolders: ['kept', 'old'],
      remoteFolders: ['kept', 'old'],
    };
    const decided = plan(input(sides));
    const unbraked = plan(input({ ...sides, allowMassDelete: true }));
    expect(decided.brake).toMatchObject({ side: 'remote', deleteCount: 13, total: 21 });
    expect(kinds(decided.actions).filter((k) => k.startsWith('delete-'))).toEqual([]);
    expect(steps(decided.actions)).toEqual(steps(unbraked.actions).filter((s) => !s.startsWith('delete-')));
    expect(steps(decided.actions)).toEqual(expect.arrayContaining(['upload-new new.txt', `download ${all[19]}`]));
    expect(steps(decided.brake?.held ?? [])).toEqual(steps(unbraked.actions).filter((s) => s.startsWith('delete-')));
    expect(steps(decided.brake?.held ?? [])).toEqual(expect.arrayContaining(['delete-remote old/a.txt', 'delete-remote-folder old', `delete-remote ${all[0]}`]));
    expect(decided.brake?.held).toHaveLength(14);
  });

  it('an unbraked plan holds nothing back', () => {
    expect(plan(deletions('local', 20, 10)).brake).toBeNull();
    expect(kinds(plan(deletions('local', 20, 10)).actions).filter((k) => k === 'delete-remote')).toHaveLength(10);
  });

  it('the user can confirm a mass deletion', () => {
    const { brake, actions } = plan(deletions('local', 20, 20, true));
    expect(brake).toBeNull();
    expect(kinds(actions).filter((k) => k === 'delete-remote')).toHaveLength(20);
  });
});

// ---- folders and ordering ------------------------------------------------------------------

describe('plan: folders', () => {
  it('a new local tree is created on the service shallow to deep, before the uploads', () => {
    const { actions } = plan(input({ local: [local('a/b/c/deep.txt', 'x'), local('a/top.txt', 'y')], localFolders: ['a/b/c', 'a', 'a/b'] }));
    expect(steps(actions)).toEqual([
      'create-remote-folder a',
      'create-remote-folder a/b',
      'create-remote-folder a/b/c',
      'upload-new a/b/c/deep.txt',
      'upload-new a/top.txt',
    ]);
  });

  it('a new remote tree is created locally with its folder ids', () => {
    const { actions } = plan(input({ remote: [remote('p/q/file.txt', 'x')], remoteFolders: ['p/q', 'p'] }));
    expect(actions.slice(0, 2)).toEqual([
      expect.objectContaining({ kind: 'create-local-folder', path: 'p', folderId: folderId('p') }),
      expect.objectContaining({ kind: 'create-local-folder', path: 'p/q', folderId: folderId('p/q') }),
    ]);
  });

  it('a tree deleted on the service is deleted locally deep to shallow, files before their folders', () => {
    const { actions } = plan(
      input({
        local: [local('a/b/x.txt', 'x'), local('a/y.txt', 'y')],
        base: [base('a/b/x.txt', 'x'), base('a/y.txt', 'y')],
        localFolders: ['a', 'a/b'],
        baseFolders: ['a', 'a/b'],
      }),
    );
    expect(steps(actions)).toEqual([
      'delete-local a/b/x.txt',
      'delete-local-folder a/b',
      'delete-local a/y.txt',
      'delete-local-folder a',
    ]);
  });

  it('a folder deleted on the service that still holds local work is re-created there', () => {
    const { actions } = plan(
      input({
        local: [local('a/b/edited.txt', 'edit'), local('a/plain.txt', 'p')],
        base: [base('a/b/edited.txt', 'v1'), base('a/plain.txt', 'p')],
        localFolders: ['a', 'a/b'],
        baseFolders: ['a', 'a/b'],
      }),
    );
    expect(kinds(actions)).toEqual(['create-remote-folder', 'create-remote-folder', 'delete-local', 'upload-new']);
    expect(kinds(actions)).not.toContain('delete-local-folder');
  });

  it('a folder deleted locally that holds a remote edit is re-created locally', () => {
    const { actions } = plan(
      input({
        base: [base('a/x.txt', 'v1'), base('a/y.txt', 'y')],
        remote: [remote('a/x.txt', 'v2'), remote('a/y.txt', 'y')],
        baseFolders: ['a'],
        remoteFolders: ['a'],
      }),
    );
    expect(kinds(actions)).toEqual(['create-local-folder', 'delete-remote', 'download']);
  });

  it('a folder deleted locally and emptied is deleted on the service after its files', () => {
    const { actions } = plan(input({ base: [base('a/x.txt', 'x')], remote: [remote('a/x.txt', 'x')], baseFolders: ['a'], remoteFolders: ['a'] }));
    expect(actions).toEqual([
      expect.objectContaining({ kind: 'delete-remote', path: 'a/x.txt' }),
      expect.objectContaining({ kind: 'delete-remote-folder', path: 'a', folderId: folderId('a') }),
    ]);
  });

  it('a folder on both sides gets a base row; one gone on both sides loses it', () => {
    const { actions } = plan(input({ localFolders: ['same'], remoteFolders: ['same'], baseFolders: ['gone'] }));
    expect(actions).toEqual([
      expect.objectContaining({ kind: 'forget-folder-base', path: 'gone' }),
      expect.objectContaining({ kind: 'record-folder-base', base: { path: 'same', folderId: folderId('same') } }),
    ]);
  });

  it('orders a mixed plan: folders, moves, deletions deep to shallow, transfers, bookkeeping', () => {
    const moved = base('m/old.txt', 'm');
    const { actions } = plan(
      input({
        local: [local('m/new.txt', 'm', { inode: moved.inode }), local('n/up.txt', 'u'), local('k/keep.txt', 'edit'), local('z/gone.txt', 'g')],
        base: [moved, base('k/keep.txt', 'k'), base('z/gone.txt', 'g'), base('z/deep/d.txt', 'd')],
        remote: [remote('m/old.txt', 'm'), remote('k/keep.txt', 'k', { lockedByUserId: 'user-other' }), remote('z/deep/d.txt', 'd'), remote('r/down.txt', 'r')],
        localFolders: ['m', 'n', 'k', 'z'],
        baseFolders: ['m', 'k', 'z', 'z/deep'],
        remoteFolders: ['m', 'k', 'z', 'z/deep', 'r'],
      }),
    );
    expect(steps(actions)).toEqual([
      'create-remote-folder n',
      'create-local-folder r',
      'move-remote m/new.txt',
      'delete-remote z/deep/d.txt',
      'delete-remote-folder z/deep',
      'delete-local z/gone.txt',
      'upload-new n/up.txt',
      'download r/down.txt',
      'locked k/keep.txt',
    ]);
  });
});

// ---- purity, determinism and safety over generated inputs ----------------------------------

const KEYS = ['a.txt', 'b.txt', 'c.txt', 'd/x.txt', 'd/y.txt'];
const CONTENTS = ['1', '2', '3'];
/** Variant 1 spells the file name in capitals: a case-only rename of the same key. */
const spell = (i: number, variant: number): string => {
  const p = KEYS[i] as string;
  return variant === 0 ? p : p.replace(/[^/]+$/u, (name) => name.toUpperCase());
};

const slotArb = fc.record({
  local: fc.option(fc.record({ variant: fc.nat(1), content: fc.constantFrom(...CONTENTS), inode: fc.integer({ min: 1, max: 6 }) }), { nil: undefined }),
  base: fc.option(fc.record({ variant: fc.nat(1), content: fc.constantFrom(...CONTENTS), inode: fc.integer({ min: 1, max: 6 }) }), { nil: undefined }),
  remote: fc.option(fc.record({ variant: fc.nat(1), content: fc.constantFrom(...CONTENTS), locked: fc.boolean() }), { nil: undefined }),
});

const inputArb = fc
  .record({
    slots: fc.array(slotArb, { minLength: KEYS.length, maxLength: KEYS.length }),
    // Remote asset ids are the base's rotated by `shift`: 0 keeps them in place, others move them.
    shift: fc.nat(KEYS.length - 1),
    folders: fc.record({ local: fc.boolean(), base: fc.boolean(), remote: fc.boolean() }),
    // Variant 1 spells the folder "D" on that side: a case-only folder rename.
    folderCase: fc.record({ local: fc.nat(1), base: fc.nat(1), remote: fc.nat(1) }),
  })
  .map(({ slots, shift, folders, folderCase }) => {
    const s: Required<Pick<Scenario, 'local' | 'base' | 'remote' | 'localFolders' | 'baseFolders' | 'remoteFolders'>> = {
      local: [],
      base: [],
      remote: [],
      localFolders: [],
      baseFolders: [],
      remoteFolders: [],
    };
    const folderName = (variant: number): string => (variant === 0 ? 'd' : 'D');
    const inFolder = (path: string, variant: number): string => (path.startsWith('d/') ? `${folderName(variant)}${path.slice(1)}` : path);
    slots.forEach((slot, i) => {
      if (slot.local) s.local.push(local(inFolder(spell(i, slot.local.variant), folderCase.local), slot.local.content, { inode: slot.local.inode }));
      if (slot.base) {
        s.base.push(base(inFolder(spell(i, slot.base.variant), folderCase.base), slot.base.content, { inode: slot.base.inode, assetId: `asset-${i}` }));
      }
      if (slot.remote) {
        s.remote.push(
          remote(inFolder(spell(i, slot.remote.variant), folderCase.remote), slot.remote.content, {
            assetId: `asset-${(i + shift) % KEYS.length}`,
            lockedByUserId: slot.remote.locked ? 'user-other' : null,
          }),
        );
      }
    });
    const holds = (files: Array<{ path: string }>): boolean => files.some((f) => f.path.toLowerCase().startsWith('d/'));
    if (folders.local || holds(s.local)) s.localFolders.push(folderName(folderCase.local));
    if (folders.base || holds(s.base)) s.baseFolders.push(folderName(folderCase.base));
    if (folders.remote || holds(s.remote)) s.remoteFolders.push(folderName(folderCase.remote));
    return input(s);
  });

function deepFreeze(value: PlannerInput): PlannerInput {
  for (const state of [value.files, value.folders]) {
    for (const map of [state.local, state.base, state.remote]) for (const item of map.values()) Object.freeze(item);
  }
  return value;
}

/** The same input with every map filled in the reverse order. */
function reversed(value: PlannerInput): PlannerInput {
  const rev = <T>(map: ReadonlyMap<string, T>): Map<string, T> => new Map([...map].reverse());
  const state = <L, B, R>(s: { local: ReadonlyMap<string, L>; base: ReadonlyMap<string, B>; remote: ReadonlyMap<string, R> }) => ({
    local: rev(s.local),
    base: rev(s.base),
    remote: rev(s.remote),
  });
  return { ...value, files: state(value.files), folders: state(value.folders) };
}

describe('plan: a file that became a folder', () => {
  it('on the service: the local file goes first, then its folder is made and filled', () => {
    const { actions } = plan(
      input({
        local: [local('art', 'v1')],
        base: [base('art', 'v1')],
        remote: [remote('art/x.txt', 'x', { folderId: folderId('art'), assetId: 'asset:x' })],
        remoteFolders: ['art'],
      }),
    );
    expect(steps(actions)).toEqual(['delete-local art', 'create-local-folder art', 'download art/x.txt']);
  });

  it('on disk: the remote file goes first, then the remote folder is made and filled', () => {
    const { actions } = plan(
      input({ local: [local('art/x.txt', 'x')], localFolders: ['art'], base: [base('art', 'v1')], remote: [remote('art', 'v1')] }),
    );
    expect(steps(actions)).toEqual(['delete-remote art', 'create-remote-folder art', 'upload-new art/x.txt']);
  });

  it('holding the old file: not a move into a folder that cannot exist yet, but a delete and a new file', () => {
    // Same inode: the file was moved into the folder that now has its name.
    const { actions } = plan(
      input({
        local: [local('notes/old.txt', 'v1', { inode: inodeOf('notes') })],
        localFolders: ['notes'],
        base: [base('notes', 'v1')],
        remote: [remote('notes', 'v1')],
      }),
    );
    expect(steps(actions)).toEqual(['delete-remote notes', 'create-remote-folder notes', 'upload-new notes/old.txt']);
  });
});

describe('plan: purity', () => {
  it('the same input gives a deep-equal plan, whatever the maps\' order, and the input is left as it was', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const snapshot = structuredClone(generated);
        const frozen = deepFreeze(generated);
        const first = plan(frozen);
        expect(plan(frozen)).toEqual(first);
        expect(plan(reversed(frozen))).toEqual(first);
        expect(frozen).toEqual(snapshot);
      }),
      { numRuns: 300 },
    );
  });

  it('a conflicted copy never takes a path either side has', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const used = new Set([...generated.files.local.keys(), ...generated.files.remote.keys(), ...generated.files.base.keys()]);
        const copies = plan(generated).actions.filter((a): a is Conflict => a.kind === 'conflict').map((c) => pathKey(c.copyPath));
        for (const copy of copies) expect(used.has(copy)).toBe(false);
        expect(new Set(copies).size).toBe(copies.length);
      }),
      { numRuns: 300 },
    );
  });
});

describe('plan: safety over generated inputs', () => {
  it('deletes a local file only if it holds the synced bytes, and an asset only at the synced version', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const { files } = generated;
        for (const action of plan(generated).actions) {
          if (action.kind === 'delete-local') {
            const key = pathKey(action.path);
            expect(files.local.get(key)?.checksum).toBe(action.expectedChecksum);
            expect(files.base.get(key)?.checksum).toBe(action.expectedChecksum);
          }
          if (action.kind === 'delete-remote') {
            const r = files.remote.get(pathKey(action.path));
            expect(r).toMatchObject({ assetId: action.assetId, versionId: action.parentVersionId, lockedByUserId: null });
            const synced = [...files.base.values()].find((b) => b.assetId === action.assetId);
            expect(synced?.checksum).toBe(r?.checksum);
          }
          if (action.kind === 'upload-version') {
            expect(files.remote.get(pathKey(action.path))?.lockedByUserId ?? null).toBeNull();
          }
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps every local file with unsynced content: it is uploaded, or waits for a lock', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const { files } = generated;
        const { actions } = plan(generated);
        const syncedChecksums = new Set([...files.base.values()].map((b) => b.checksum));
        const kept = new Set<string>();
        // A locked file may have been moved by the plan first: find it where it was.
        const movedFrom = new Map(actions.flatMap((a) => (a.kind === 'move-local' ? [[pathKey(a.to), pathKey(a.from)] as const] : [])));
        const scanned = (path: string): LocalFile | undefined => files.local.get(movedFrom.get(pathKey(path)) ?? pathKey(path));
        for (const action of actions) {
          if (action.kind === 'upload-new' || action.kind === 'upload-version') kept.add(action.local.checksum);
          if (action.kind === 'conflict') kept.add(action.local.checksum);
          if (action.kind === 'record-base') kept.add(action.base.checksum);
          if (action.kind === 'locked') kept.add(scanned(action.path)?.checksum ?? '');
        }
        for (const file of files.local.values()) {
          if (syncedChecksums.has(file.checksum)) continue;
          expect(kept.has(file.checksum)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('summarises exactly the actions it plans', () => {
    fc.assert(
      fc.property(inputArb, (generated) => {
        const { actions, summary } = plan(generated);
        for (const [kind, count] of Object.entries(summary.counts)) {
          expect(actions.filter((a) => a.kind === kind)).toHaveLength(count);
        }
        expect(summary.baseFiles).toBe(generated.files.base.size);
      }),
      { numRuns: 200 },
    );
  });
});

// ---- convergence: running a plan leaves nothing to do --------------------------------------

/**
 * Runs file actions the way the executor's contract says (actions.ts) on in-memory copies of
 * the three views. Folders are left out (only files are compared afterwards), but for their
 * case-only renames, which re-spell what is below them, and their base rows.
 */
function runFileActions(start: PlannerInput, actions: readonly Action[]): PlannerInput {
  const localFiles = new Map(start.files.local);
  const remoteFiles = new Map(start.files.remote);
  const baseFiles = new Map(start.files.base);
  const localFolders = new Map(start.folders.local);
  const remoteFolders = new Map(start.folders.remote);
  const baseFolders = new Map(start.folders.base);
  let counter = 0;
  /** Gives every path below `to`'s key (and the folder's own) the spelling of `to`. */
  const respellBelow = <T extends { path: string }>(map: Map<string, T>, to: string): void => {
    const key = pathKey(to);
    for (const [k, item] of map) {
      if (k === key) map.set(k, { ...item, path: to });
      else if (k.startsWith(`${key}/`)) map.set(k, { ...item, path: to + item.path.slice(to.length) });
    }
  };
  const rekey = (basePath: string | null, to: string): void => {
    if (basePath === null) return;
    const row = baseFiles.get(pathKey(basePath));
    if (row === undefined) return;
    baseFiles.delete(pathKey(basePath));
    baseFiles.set(pathKey(to), { ...row, path: to });
  };
  const writeBase = (l: LocalFile, r: RemoteFile): void =>
    void baseFiles.set(pathKey(l.path), { path: l.path, assetId: r.assetId, versionId: r.versionId, checksum: l.checksum, size: l.size, mtimeNs: l.mtimeNs, inode: l.inode });
  const run = (action: Action): void => {
    switch (action.kind) {
      case 'move-local': {
        if (action.item === 'folder') {
          respellBelow(localFiles, action.to);
          respellBelow(localFolders, action.to);
          baseFolders.set(pathKey(action.to), { path: action.to, folderId: action.folderId });
          return;
        }
        const l = localFiles.get(pathKey(action.from)) as LocalFile;
        localFiles.delete(pathKey(action.from));
        localFiles.set(pathKey(action.to), { ...l, path: action.to });
        rekey(action.basePath, action.to);
        return;
      }
      case 'move-remote': {
        if (action.item === 'folder') {
          respellBelow(remoteFiles, action.to);
          respellBelow(remoteFolders, action.to);
          baseFolders.set(pathKey(action.to), { path: action.to, folderId: action.folderId });
          return;
        }
        const r = remoteFiles.get(pathKey(action.from)) as RemoteFile;
        remoteFiles.delete(pathKey(action.from));
        remoteFiles.set(pathKey(action.to), { ...r, path: action.to });
        rekey(action.basePath, action.to);
        return;
      }
      case 'delete-local':
        localFiles.delete(pathKey(action.path));
        baseFiles.delete(pathKey(action.path));
        return;
      case 'delete-remote':
        remoteFiles.delete(pathKey(action.path));
        baseFiles.delete(pathKey(action.path));
        return;
      case 'download': {
        const l: LocalFile = { path: action.path, size: action.remote.size, mtimeNs: '1900000000000000000', ctimeNs: '1900000000000000000', inode: 9000 + ++counter, checksum: action.remote.checksum };
        localFiles.set(pathKey(action.path), l);
        writeBase(l, action.remote);
        return;
      }
      case 'upload-new': {
        const r = remote(action.path, 'unused', { assetId: `uploaded-${++counter}`, versionId: `uploaded-${counter}`, checksum: action.local.checksum, size: action.local.size });
        remoteFiles.set(pathKey(action.path), r);
        writeBase(action.local, r);
        return;
      }
      case 'upload-version': {
        const before = remoteFiles.get(pathKey(action.path)) as RemoteFile;
        expect(before.versionId).toBe(action.parentVersionId);
        const r = { ...before, path: action.path, versionId: `uploaded-${++counter}`, checksum: action.local.checksum, size: action.local.size };
        remoteFiles.set(pathKey(action.path), r);
        writeBase(action.local, r);
        return;
      }
      case 'conflict':
        for (const step of action.steps) run(step);
        return;
      case 'record-base':
        baseFiles.set(pathKey(action.base.path), action.base);
        return;
      case 'forget-base':
        baseFiles.delete(pathKey(action.path));
        return;
      case 'record-folder-base':
        baseFolders.set(pathKey(action.base.path), action.base);
        return;
      case 'locked':
      case 'create-local-folder':
      case 'create-remote-folder':
      case 'delete-local-folder':
      case 'delete-remote-folder':
      case 'forget-folder-base':
        return;
      default:
        assertNever(action);
    }
  };
  for (const action of actions) run(action);
  return {
    ...start,
    files: { local: localFiles, remote: remoteFiles, base: baseFiles },
    folders: { local: localFolders, remote: remoteFolders, base: baseFolders },
  };
}

describe('plan: convergence', () => {
  it('after the plan runs, a new plan has no file work left but what waits for a lock', () => {
    const fileWork = (a: Action): boolean => !a.kind.endsWith('-folder') && a.kind !== 'record-folder-base' && a.kind !== 'forget-folder-base';
    fc.assert(
      fc.property(inputArb, (generated) => {
        const after = runFileActions(generated, plan(generated).actions);
        const again = plan(after).actions.filter(fileWork);
        expect(again.filter((a) => a.kind !== 'locked')).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
