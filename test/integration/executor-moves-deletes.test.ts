import { existsSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, readdir, rename, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathKey } from '../../main/local/paths.js';
import { readStamp } from '../../main/local/stamp.js';
import type { Action } from '../../main/sync/actions.js';
import { executePlan, type ExecutorDeps } from '../../main/sync/executor/execute-plan.js';
import { trashIfUnchanged } from '../../main/sync/executor/guarded-trash.js';
import { moveToTrash } from '../../main/sync/executor/trash.js';
import type { BaseFile, LocalFile } from '../../main/model/views.js';
import { openLogFile } from '../helpers/log-file.js';
import { putAsset, putVersion, executorWorld, writeLocal, type Harness } from './executor-fixture.js';

const world = executorWorld();
let h: Harness;

/** A base row for a file synced as `local` (what the index holds after a sync). */
function synced(h: Harness, local: LocalFile, assetId = 'asset-1', versionId = 'version-1'): BaseFile {
  const row: BaseFile = { path: local.path, assetId, versionId, checksum: local.checksum, size: local.size, mtimeNs: local.mtimeNs, inode: local.inode };
  h.index.base.putFile(h.ws, row);
  h.index.hashCache(h.ws).put(pathKey(local.path), { size: local.size, mtimeNs: local.mtimeNs, inode: local.inode, checksum: local.checksum });
  return row;
}

type LogRecord = Record<string, unknown>;

/** A time utimes sets to the nanosecond (a fraction of a second comes back rounded): a test can put an mtime back to it exactly. */
const WHOLE_SECOND = 1_700_000_000;

/** writeLocal, with the file's mtime at WHOLE_SECOND. */
async function writeLocalAtWholeSecond(root: string, relPath: string, bytes: string): Promise<LocalFile> {
  const local = await writeLocal(root, relPath, bytes);
  const abs = path.join(root, relPath);
  await utimes(abs, WHOLE_SECOND, WHOLE_SECOND);
  return { ...local, ...(await readStamp(abs)) };
}

/** Runs `plan` with the app's log file as its logger; answers the result and what the log holds. */
async function executeLogged(h: Harness, plan: Action[], overrides: Partial<ExecutorDeps> = {}) {
  const log = openLogFile(path.join(h.outside, 'logs'));
  const result = await executePlan(plan, h.depsWith({ ...overrides, logger: log.logger }));
  return { result, log: await log.read() };
}

/** Why the log says the action on `relPath` was left for the next cycle, as the user reads it there. */
function whyLeft(log: LogRecord[], relPath: string): unknown[] {
  return log.filter((line) => line.msg === 'action left for the next cycle' && line.path === relPath).map((line) => line.why);
}

/** A trash that works as the OS's does: the file leaves its folder for one outside the workspace. */
async function outsideTrash(h: Harness): Promise<{ trash: (abs: string) => Promise<void>; calls: string[] }> {
  const folder = path.join(h.outside, 'trash');
  await mkdir(folder, { recursive: true });
  const calls: string[] = [];
  return {
    calls,
    trash: async (abs) => {
      calls.push(abs);
      await rename(abs, path.join(folder, path.basename(abs)));
    },
  };
}

describe('moves', () => {
  it('moves a local file, its base row and its hash cache entry, into a new folder', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'Docs/naming.md', 'rules');
    const row = synced(h, local);

    const result = await executePlan([{ kind: 'move-local', from: 'Docs/naming.md', to: 'Guides/asset-naming.md', basePath: 'Docs/naming.md', reason: 'test' }], h.deps);

    expect(result).toMatchObject({ moved: 1, failed: [] });
    expect(existsSync(path.join(h.root, 'Docs/naming.md'))).toBe(false);
    expect(await readFile(path.join(h.root, 'Guides/asset-naming.md'), 'utf8')).toBe('rules');
    expect(h.index.base.getFile(h.ws, 'Docs/naming.md')).toBeUndefined();
    expect(h.index.base.getFile(h.ws, 'Guides/asset-naming.md')).toEqual({ ...row, path: 'Guides/asset-naming.md' });
    expect(h.index.hashCache(h.ws).get(pathKey('Guides/asset-naming.md'))?.checksum).toBe(local.checksum);
    expect(h.suppressed).toEqual(expect.arrayContaining(['Docs/naming.md', 'Guides/asset-naming.md']));
  });

  it('never moves a file over another one', async () => {
    h = await world.setUp();
    await writeLocal(h.root, 'a.txt', 'A');
    await writeLocal(h.root, 'b.txt', 'B');

    const result = await executePlan([{ kind: 'move-local', from: 'a.txt', to: 'b.txt', basePath: null, reason: 'test' }], h.deps);

    expect(result.failed.map((f) => [f.path, (f.error as { code?: string }).code])).toEqual([['b.txt', 'target_exists']]);
    expect(await readFile(path.join(h.root, 'a.txt'), 'utf8')).toBe('A');
    expect(await readFile(path.join(h.root, 'b.txt'), 'utf8')).toBe('B');
  });

  it('renames and moves an asset on the service, and its base row', async () => {
    h = await world.setUp();
    const asset = await putAsset(h.client, h.ws, { name: 'studio-001.jpg', bytes: Buffer.from('jpeg') });
    const folder = await h.client.createFolder(h.ws, { name: 'Shoots', parent_id: null });
    h.deps.folderIds.set('shoots', folder.id);
    const local = await writeLocal(h.root, 'Shoots/cover.jpg', 'jpeg');
    synced(h, { ...local, path: 'studio-001.jpg' }, asset.id, asset.current_version_id);

    const result = await executePlan(
      [{ kind: 'move-remote', from: 'studio-001.jpg', to: 'Shoots/cover.jpg', assetId: asset.id, basePath: 'studio-001.jpg', reason: 'test' }],
      h.deps,
    );

    expect(result).toMatchObject({ moved: 1, failed: [] });
    expect(await h.client.getAsset(h.ws, asset.id)).toMatchObject({ file_name: 'cover.jpg', folder_id: folder.id });
    expect(h.index.base.getFile(h.ws, 'studio-001.jpg')).toBeUndefined();
    expect(h.index.base.getFile(h.ws, 'Shoots/cover.jpg')).toMatchObject({ assetId: asset.id, path: 'Shoots/cover.jpg' });
  });
});

describe('deletions', () => {
  it('moves a deleted file to the trash (never unlinks) and forgets its base row', async () => {
    h = await world.setUp();
    const local = await writeLocal(h.root, 'Brand/old-logo.svg', '<svg/>');
    synced(h, local);

    const { result, log } = await executeLogged(h, [{ kind: 'delete-local', path: 'Brand/old-logo.svg', expectedChecksum: local.checksum, reason: 'test' }]);

    expect(result).toMatchObject({ deleted: 1, failed: [] });
    expect(existsSync(path.join(h.root, 'Brand/old-logo.svg'))).toBe(false);
    // The test's "OS" has no trash: the workspace trash keeps it, and the log says why and where.
    expect(await readFile(path.join(h.root, '.assetsync-trash/2024-03-05/Brand/old-logo.svg'), 'utf8')).toBe('<svg/>');
    expect(h.index.base.getFile(h.ws, 'Brand/old-logo.svg')).toBeUndefined();
    expect(h.activity.map((a) => [a.kind, a.message])).toEqual([['trashed', 'Moved Brand/old-logo.svg to ".assetsync-trash/2024-03-05/Brand/old-logo.svg" (deleted on the service)']]);
    expect(log).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ level: 40, path: 'Brand/old-logo.svg', err: 'no system trash here', msg: 'the system trash failed; using the workspace trash' }),
        expect.objectContaining({ level: 30, path: 'Brand/old-logo.svg', trashedTo: '.assetsync-trash/2024-03-05/Brand/old-logo.svg', msg: 'moved to the workspace trash' }),
      ]),
    );
  });

  it('keeps a file whose content changed since the plan, whatever the plan says', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'notes.md', 'as planned');
    const row = synced(h, planned);
    await writeFile(path.join(h.root, 'notes.md'), 'edited after the plan');

    const { result, log } = await executeLogged(h, [{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }]);

    expect(result).toMatchObject({ deleted: 0, deferred: 1, failed: [] });
    expect(await readFile(path.join(h.root, 'notes.md'), 'utf8')).toBe('edited after the plan');
    expect(existsSync(path.join(h.root, '.assetsync-trash'))).toBe(false);
    expect(h.index.base.getFile(h.ws, 'notes.md')).toEqual(row);
    expect(whyLeft(log, 'notes.md')).toEqual(['the file changed since the plan was made']);
  });

  // A save in place changes the size, the mtime or both; each alone must be enough to keep it.
  const saves: [string, (abs: string) => Promise<void>][] = [
    ['longer', (abs) => writeFile(abs, 'saved while it was being trashed')],
    ['as long, a later mtime', async (abs) => {
      await writeFile(abs, 'as PLANNED');
      await utimes(abs, WHOLE_SECOND + 5, WHOLE_SECOND + 5);
    }],
    ['longer, its mtime put back', async (abs) => {
      await writeFile(abs, 'saved while it was being trashed, mtime restored');
      await utimes(abs, WHOLE_SECOND, WHOLE_SECOND);
    }],
  ];
  it.each(saves)('keeps an edit saved while the file was on its way to the trash, at its name (%s)', async (_kind, save) => {
    h = await world.setUp();
    const planned = await writeLocalAtWholeSecond(h.root, 'notes.md', 'as planned');
    const row = synced(h, planned);
    const trashed = path.join(h.outside, 'trash');
    await mkdir(trashed);
    let saved = '';
    // The gap between the check and the trash: the user saves in place, then the trash takes the file.
    const saveThenTrash = async (abs: string): Promise<void> => {
      await save(abs);
      saved = await readFile(abs, 'utf8');
      await rename(abs, path.join(trashed, 'notes.md'));
    };

    const { result, log } = await executeLogged(h, [{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }], { trash: saveThenTrash });

    expect(result).toMatchObject({ deleted: 0, deferred: 1, failed: [] });
    expect(await readFile(path.join(h.root, 'notes.md'), 'utf8')).toBe(saved);
    expect(h.index.base.getFile(h.ws, 'notes.md')).toEqual(row);
    expect(await readdir(h.root)).toEqual(['notes.md']);
    expect(h.activity.map((a) => [a.kind, a.message])).toEqual([['restored', 'notes.md was saved while it went to the trash: your edit is kept at its name']]);
    expect(whyLeft(log, 'notes.md')).toEqual(['the file was saved while it went to the trash: the edit was kept']);
  });

  it('forgets a deleted file that is already gone, and trashes nothing', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'gone.md', 'as planned');
    synced(h, planned);
    await rm(path.join(h.root, 'gone.md'));
    let trashCalls = 0;

    const result = await executePlan(
      [{ kind: 'delete-local', path: 'gone.md', expectedChecksum: planned.checksum, reason: 'test' }],
      h.depsWith({ trash: () => Promise.resolve(void (trashCalls += 1)) }),
    );

    expect(result).toMatchObject({ deleted: 1, failed: [] });
    expect(trashCalls).toBe(0);
    expect(h.index.base.getFile(h.ws, 'gone.md')).toBeUndefined();
    expect(h.activity).toEqual([]);
  });

  it('numbers a deleted file whose name is taken in the workspace trash already', async () => {
    h = await world.setUp();
    for (const content of ['first', 'second', 'third']) {
      const local = await writeLocal(h.root, 'Brand/old-logo.svg', content);
      synced(h, local);
      const result = await executePlan([{ kind: 'delete-local', path: 'Brand/old-logo.svg', expectedChecksum: local.checksum, reason: 'test' }], h.deps);
      expect(result).toMatchObject({ deleted: 1, failed: [] });
    }
    const day = path.join(h.root, '.assetsync-trash/2024-03-05/Brand');
    expect((await readdir(day)).sort()).toEqual(['old-logo (2).svg', 'old-logo (3).svg', 'old-logo.svg']);
    expect(await readFile(path.join(day, 'old-logo (2).svg'), 'utf8')).toBe('second');
    expect(await readFile(path.join(day, 'old-logo (3).svg'), 'utf8')).toBe('third');
    expect(h.activity.map((a) => a.message)[1]).toBe('Moved Brand/old-logo.svg to ".assetsync-trash/2024-03-05/Brand/old-logo (2).svg" (deleted on the service)');
  });

  it('keeps such an edit as a conflicted copy when a new file took the name meanwhile', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'Docs/brief.txt', 'as planned');
    synced(h, planned);
    const trashed = path.join(h.outside, 'trash');
    await mkdir(trashed);
    const saveTrashAndRecreate = async (abs: string): Promise<void> => {
      await writeFile(abs, 'saved while it was being trashed');
      await rename(abs, path.join(trashed, 'brief.txt'));
      await writeFile(abs, 'a new file at the name');
    };

    const result = await executePlan(
      [{ kind: 'delete-local', path: 'Docs/brief.txt', expectedChecksum: planned.checksum, reason: 'test' }],
      h.depsWith({ trash: saveTrashAndRecreate }),
    );

    expect(result).toMatchObject({ deleted: 0, deferred: 1, failed: [] });
    expect(await readFile(path.join(h.root, 'Docs/brief.txt'), 'utf8')).toBe('a new file at the name');
    const names = await readdir(path.join(h.root, 'Docs'));
    const copy = names.find((n) => n.includes('conflicted copy'));
    expect(names).toHaveLength(2);
    expect(await readFile(path.join(h.root, 'Docs', copy ?? ''), 'utf8')).toBe('saved while it was being trashed');
    expect(h.problems.map((p) => p.kind)).toContain('conflict');
    expect(h.activity.map((a) => [a.kind, a.message])).toEqual([['conflict', `Docs/brief.txt was saved while it went to the trash: your edit is kept as Docs/${copy ?? ''}`]]);
  });

  it('leaves no hidden link behind when the trash fails', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'notes.md', 'as planned');
    synced(h, planned);
    // A trash that lost the file and then failed: the workspace trash finds nothing to move either.
    const brokenTrash = async (abs: string): Promise<void> => {
      await rm(abs);
      throw new Error('the trash broke');
    };

    const result = await executePlan([{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }], h.depsWith({ trash: brokenTrash }));

    // The failure the user sees is the trash's: the workspace trash found nothing to move.
    expect(result.failed.map((f) => (f.error as NodeJS.ErrnoException).code)).toEqual(['ENOENT']);
    expect((await readdir(h.root)).filter((name) => name !== '.assetsync-trash')).toEqual([]);
  });

  it('trashes nothing when a save replaces the file right after the last check', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'notes.md', 'as planned');
    const row = synced(h, planned);
    const abs = path.join(h.root, 'notes.md');
    // An editor's atomic save: a new file renamed over the name.
    const atomicSave = (): void => {
      writeFileSync(`${abs}.tmp`, 'saved by renaming');
      renameSync(`${abs}.tmp`, abs);
    };
    let trashCalls = 0;

    const { result, log } = await executeLogged(h, [{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }], {
      placeHooks: { afterCheck: atomicSave },
      trash: () => Promise.resolve(void (trashCalls += 1)),
    });

    expect(result).toMatchObject({ deleted: 0, deferred: 1, failed: [] });
    expect(await readFile(abs, 'utf8')).toBe('saved by renaming');
    expect(trashCalls).toBe(0);
    expect(await readdir(h.root)).toEqual(['notes.md']);
    expect(h.index.base.getFile(h.ws, 'notes.md')).toEqual(row);
    expect(whyLeft(log, 'notes.md')).toEqual(['the file changed since the plan was made']);
  });

  it('trashes nothing when the user deletes the file right after the last check, and fails nothing', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'notes.md', 'as planned');
    const row = synced(h, planned);
    const { trash, calls } = await outsideTrash(h);

    const result = await executePlan(
      [{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }],
      h.depsWith({ placeHooks: { afterCheck: () => unlinkSync(path.join(h.root, 'notes.md')) }, trash }),
    );

    expect(result).toMatchObject({ deleted: 0, deferred: 1, failed: [] });
    expect(calls).toEqual([]);
    expect(await readdir(h.root)).toEqual([]);
    // Left for the next cycle, which finds the file gone and forgets it.
    expect(h.index.base.getFile(h.ws, 'notes.md')).toEqual(row);
  });

  it('trashes nothing that was rewritten in place since it was checked, even with its size and mtime put back', async () => {
    h = await world.setUp();
    await writeLocalAtWholeSecond(h.root, 'notes.md', 'as planned');
    const abs = path.join(h.root, 'notes.md');
    const seen = await readStamp(abs);
    // A tool that keeps times (rsync -t, cp -p) writes the same length and puts the mtime back: only the ctime moves.
    await writeFile(abs, 'AS PLANNED');
    await utimes(abs, WHOLE_SECOND, WHOLE_SECOND);
    const { trash, calls } = await outsideTrash(h);

    const done = await trashIfUnchanged(h.depsWith({ trash }), 'notes.md', abs, seen);

    expect(done).toEqual({ kind: 'changed' });
    expect(calls).toEqual([]);
    expect(await readFile(abs, 'utf8')).toBe('AS PLANNED');
    expect(await readdir(h.root)).toEqual(['notes.md']);
  });

  it('deletes nothing when the link that keeps a save cannot be made on a disk that has links', async () => {
    h = await world.setUp();
    // A path so long that the hidden name beside the file no longer fits in one (Linux: 4,096 bytes).
    const nameRoom = 4095 - `${h.root}/`.length - '/a.txt'.length;
    const folders = Array.from({ length: Math.ceil(nameRoom / 201) }, (_, i) => String(i).padEnd(200, 'x'));
    const parent = folders.join('/').slice(0, nameRoom).replace(/\/+$/, '');
    const relPath = `${parent}/a.txt`;
    const planned = await writeLocal(h.root, relPath, 'as planned');
    synced(h, planned);
    const { trash, calls } = await outsideTrash(h);

    const result = await executePlan([{ kind: 'delete-local', path: relPath, expectedChecksum: planned.checksum, reason: 'test' }], h.depsWith({ trash }));

    expect(result.failed.map((f) => (f.error as NodeJS.ErrnoException).code)).toEqual(['ENAMETOOLONG']);
    expect(calls).toEqual([]);
    expect(await readFile(path.join(h.root, relPath), 'utf8')).toBe('as planned');
    expect(await readdir(path.join(h.root, parent))).toEqual(['a.txt']);
  });

  it('says "the trash" when the system trash took the file, and keeps a new file saved at its name right after', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'notes.md', 'as planned');
    synced(h, planned);
    const { trash, calls } = await outsideTrash(h);
    const trashThenSave = async (abs: string): Promise<void> => {
      await trash(abs);
      await writeFile(abs, 'a new file at the name');
    };

    const result = await executePlan([{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }], h.depsWith({ trash: trashThenSave }));

    expect(result).toMatchObject({ deleted: 1, failed: [] });
    expect(calls).toHaveLength(1);
    expect(await readFile(path.join(h.outside, 'trash', 'notes.md'), 'utf8')).toBe('as planned');
    expect(await readFile(path.join(h.root, 'notes.md'), 'utf8')).toBe('a new file at the name');
    expect(await readdir(h.root)).toEqual(['notes.md']);
    expect(h.activity.map((a) => [a.kind, a.message])).toEqual([['trashed', 'Moved notes.md to the trash (deleted on the service)']]);
  });

  it('counts a file gone before the trash is called as deleted, and makes no workspace trash for it', async () => {
    h = await world.setUp();
    const abs = path.join(h.root, 'gone.md');

    // The trash package answers quietly for a path it does not find.
    const trashed = await moveToTrash(h.depsWith({ trash: () => Promise.resolve() }), 'gone.md', abs);

    expect(trashed).toEqual({ where: 'system' });
    expect(await readdir(h.root)).toEqual([]);
  });

  it('does not take a trash\'s quiet answer for the deletion: a file still there goes to the workspace trash', async () => {
    h = await world.setUp();
    const planned = await writeLocal(h.root, 'notes.md', 'as planned');
    synced(h, planned);

    const result = await executePlan(
      [{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }],
      h.depsWith({ trash: () => Promise.resolve() }),
    );

    expect(result).toMatchObject({ deleted: 1, failed: [] });
    expect(existsSync(path.join(h.root, 'notes.md'))).toBe(false);
    expect(await readFile(path.join(h.root, '.assetsync-trash/2024-03-05/notes.md'), 'utf8')).toBe('as planned');
    expect(h.activity.map((a) => a.message)).toEqual(['Moved notes.md to ".assetsync-trash/2024-03-05/notes.md" (deleted on the service)']);
  });

  it('soft-deletes an asset on the service (restorable), only while it is still the version planned', async () => {
    h = await world.setUp();
    const gone = await putAsset(h.client, h.ws, { name: 'brief.md', bytes: Buffer.from('brief') });
    const kept = await putAsset(h.client, h.ws, { name: 'flyer.ai', bytes: Buffer.from('flyer v1') });
    await putVersion(h.colleague, h.ws, kept.id, Buffer.from('flyer v2'), kept.current_version_id);
    const plan: Action[] = [
      { kind: 'delete-remote', path: 'brief.md', assetId: gone.id, parentVersionId: gone.current_version_id, reason: 'test' },
      { kind: 'delete-remote', path: 'flyer.ai', assetId: kept.id, parentVersionId: kept.current_version_id, reason: 'test' },
    ];

    const result = await executePlan(plan, h.deps);

    expect(result).toMatchObject({ deleted: 1, deferred: 1, failed: [] });
    expect((await h.client.getAsset(h.ws, gone.id)).isActive).toBe(false);
    expect((await h.client.getAsset(h.ws, kept.id)).isActive).toBe(true);
    await expect(h.client.restoreAsset(h.ws, gone.id)).resolves.toMatchObject({ isActive: true });
  });

  it('removes folders only when empty, on both sides', async () => {
    h = await world.setUp();
    await mkdir(path.join(h.root, 'Empty'));
    await writeLocal(h.root, 'Full/keep.txt', 'keep');
    const empty = await h.client.createFolder(h.ws, { name: 'Gone', parent_id: null });
    const full = await h.client.createFolder(h.ws, { name: 'Busy', parent_id: null });
    await putAsset(h.colleague, h.ws, { name: 'inside.txt', bytes: Buffer.from('x'), folderId: full.id });
    for (const [p, id] of [['Empty', 'f-empty'], ['Full', 'f-full'], ['Gone', empty.id], ['Busy', full.id]] as const) {
      h.index.base.putFolder(h.ws, { path: p, folderId: id });
    }

    const result = await executePlan(
      [
        { kind: 'delete-local-folder', path: 'Empty', reason: 'test' },
        { kind: 'delete-local-folder', path: 'Full', reason: 'test' },
        { kind: 'delete-remote-folder', path: 'Gone', folderId: empty.id, reason: 'test' },
        { kind: 'delete-remote-folder', path: 'Busy', folderId: full.id, reason: 'test' },
      ],
      h.deps,
    );

    expect(result).toMatchObject({ deleted: 2, deferred: 2, failed: [] });
    expect(await readdir(h.root)).toEqual(['Full']);
    expect(await readFile(path.join(h.root, 'Full/keep.txt'), 'utf8')).toBe('keep');
    const names = (await h.client.getHierarchy(h.ws)).folders.map((f) => f.name);
    expect(names).toContain('Busy');
    expect(names).not.toContain('Gone');
    expect([...h.index.base.load(h.ws).folders.values()].map((f) => f.path).sort()).toEqual(['Busy', 'Full']);
  });
});

/**
 * A disk without hard links (FAT, exFAT, some network shares), where one is given:
 * scripts/test-mutation.sh mounts an exFAT image for it. There a deletion has no hidden link to
 * keep a save with: the file is checked once more and goes to the trash.
 */
const noHardLinksParent = process.env.ASSET_SYNC_TEST_NO_HARDLINKS_DIR ?? '';

describe.runIf(noHardLinksParent !== '')('deletions on a disk without hard links', () => {
  it('moves a deleted file to the trash and forgets its base row', async () => {
    h = await world.setUp({ rootParent: noHardLinksParent });
    const local = await writeLocal(h.root, 'Brand/old-logo.svg', '<svg/>');
    synced(h, local);

    const result = await executePlan([{ kind: 'delete-local', path: 'Brand/old-logo.svg', expectedChecksum: local.checksum, reason: 'test' }], h.deps);

    expect(result).toMatchObject({ deleted: 1, failed: [] });
    expect(await readdir(path.join(h.root, 'Brand'))).toEqual([]);
    expect(await readFile(path.join(h.root, '.assetsync-trash/2024-03-05/Brand/old-logo.svg'), 'utf8')).toBe('<svg/>');
    expect(h.index.base.getFile(h.ws, 'Brand/old-logo.svg')).toBeUndefined();
    expect(h.activity.map((a) => [a.kind, a.message])).toEqual([['trashed', 'Moved Brand/old-logo.svg to ".assetsync-trash/2024-03-05/Brand/old-logo.svg" (deleted on the service)']]);
  });

  it('trashes nothing when the user saves into the file right after the first check', async () => {
    h = await world.setUp({ rootParent: noHardLinksParent });
    const planned = await writeLocal(h.root, 'notes.md', 'as planned');
    const row = synced(h, planned);
    const abs = path.join(h.root, 'notes.md');
    let trashCalls = 0;

    const { result, log } = await executeLogged(h, [{ kind: 'delete-local', path: 'notes.md', expectedChecksum: planned.checksum, reason: 'test' }], {
      placeHooks: { afterCheck: () => writeFileSync(abs, 'saved in place') },
      trash: () => Promise.resolve(void (trashCalls += 1)),
    });

    expect(result).toMatchObject({ deleted: 0, deferred: 1, failed: [] });
    expect(trashCalls).toBe(0);
    expect(await readFile(abs, 'utf8')).toBe('saved in place');
    expect(await readdir(h.root)).toEqual(['notes.md']);
    expect(h.index.base.getFile(h.ws, 'notes.md')).toEqual(row);
    expect(whyLeft(log, 'notes.md')).toEqual(['the file changed since the plan was made']);
  });
});
