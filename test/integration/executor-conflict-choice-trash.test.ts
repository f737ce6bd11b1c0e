/**
 * Resolving a conflict ends with its copy in the trash; a save into the copy while it goes there
 * must not go with it (main/sync/executor/guarded-trash.ts): the copy stays, and the choice
 * fails with CopyChangingError so the user sees the conflict again.
 */
import { readFile, readdir, rename, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CopyChangingError, applyConflictChoice } from '../../main/sync/executor/conflict-choice.js';
import { openConflicts, recordConflict } from '../../main/sync/executor/open-conflicts.js';
import { executorWorld, writeLocal, type Harness } from './executor-fixture.js';

const world = executorWorld();
const copyPath = 'Docs/brief (conflicted copy Test-Box 2024-03-05).txt';

/** Docs/brief.txt in conflict: theirs at the name, mine in its conflicted copy. */
async function openConflict(h: Harness): Promise<void> {
  await writeLocal(h.root, 'Docs/brief.txt', 'theirs');
  await writeLocal(h.root, copyPath, 'mine');
  recordConflict(h.index, h.ws, { path: 'Docs/brief.txt', copyPath, at: '2024-03-05T14:07:09.000Z' });
}

describe('the copy a resolved conflict trashes', () => {
  it('goes to the trash, and the conflict closes (keep theirs)', async () => {
    const h = await world.setUp();
    await openConflict(h);

    const resolved = await applyConflictChoice(h.deps, copyPath, 'theirs');

    // The test's "OS" has no trash: where the copy went is what the app and the CLI tell the user.
    const trashedAt = `.assetsync-trash/2024-03-05/${copyPath}`;
    expect(resolved.trashed).toEqual({ where: 'workspace', path: trashedAt });
    expect(await readFile(path.join(h.root, trashedAt), 'utf8')).toBe('mine');
    expect(await readdir(path.join(h.root, 'Docs'))).toEqual(['brief.txt']);
    expect(openConflicts(h.index, h.ws)).toEqual([]);
  });

  it('stays, with the edit, when it is saved while it goes to the trash (keep theirs)', async () => {
    const h = await world.setUp();
    await openConflict(h);
    const trashed = path.join(h.outside, 'trash');
    await mkdir(trashed);
    const saveThenTrash = async (abs: string): Promise<void> => {
      await writeFile(abs, 'mine, saved again while it was being trashed');
      await rename(abs, path.join(trashed, 'copy.txt'));
    };

    const refused = await applyConflictChoice(h.depsWith({ trash: saveThenTrash }), copyPath, 'theirs').catch((e: unknown) => e);

    expect(refused).toBeInstanceOf(CopyChangingError);
    expect(await readFile(path.join(h.root, copyPath), 'utf8')).toBe('mine, saved again while it was being trashed');
    expect((await readdir(path.join(h.root, 'Docs'))).sort()).toEqual([path.basename(copyPath), 'brief.txt'].sort());
    expect(openConflicts(h.index, h.ws).map((c) => c.copyPath)).toEqual([copyPath]);
  });
});
