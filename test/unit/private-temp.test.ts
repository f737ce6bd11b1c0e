/**
 * The folder for temporary copies in the shared temp folder: this user's own folder is used only
 * when it is a real folder owned by this user and closed to others; one made by someone else,
 * open to others, a link or a file is left alone for a fresh private folder.
 */
import { chmod, lstat, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { privateTempRoot } from '../../main/app-api/private-temp.js';

const uid = process.getuid?.() ?? 1000;
let parent: string;

beforeEach(async () => {
  parent = await mkdtemp(join(tmpdir(), 'private-temp-'));
});
afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

async function expectPrivate(path: string, owner = uid): Promise<void> {
  const info = await lstat(path);
  expect(info.isDirectory()).toBe(true);
  expect(info.uid).toBe(owner);
  expect(info.mode & 0o077).toBe(0);
}

describe('privateTempRoot', () => {
  it.skipIf(process.platform === 'win32')('makes this user’s folder closed to others, and uses it again', async () => {
    const first = await privateTempRoot({ parent });
    expect(first).toEqual({ path: join(parent, `asset-sync-${uid}`), refused: null });
    await expectPrivate(first.path);
    expect(await privateTempRoot({ parent })).toEqual(first);
  });

  it.skipIf(process.platform === 'win32').each([
    ['writable by everyone', 0o777],
    ['writable by its group', 0o770],
    ['readable by everyone', 0o755],
  ])('leaves a folder %s alone', async (_what, mode) => {
    const planted = join(parent, `asset-sync-${uid}`);
    await mkdir(planted);
    await chmod(planted, mode);
    const got = await privateTempRoot({ parent });
    expect(got.refused).toBe(planted);
    expect(got.path).not.toBe(planted);
    expect(got.path.startsWith(`${parent}/asset-sync-${uid}-`)).toBe(true);
    await expectPrivate(got.path);
  });

  it.skipIf(process.platform === 'win32')('leaves alone a folder another user made', async () => {
    // Owned by this process's user, so for a user with another id it is someone else's.
    const other = uid + 1;
    const planted = join(parent, `asset-sync-${other}`);
    await mkdir(planted, { mode: 0o700 });
    const got = await privateTempRoot({ parent, uid: other });
    expect(got.refused).toBe(planted);
    expect(got.path.startsWith(`${parent}/asset-sync-${other}-`)).toBe(true);
  });

  it.skipIf(process.platform === 'win32')('leaves alone a link to elsewhere, and a file, in its place', async () => {
    const elsewhere = join(parent, 'elsewhere');
    await mkdir(elsewhere, { mode: 0o700 });
    await symlink(elsewhere, join(parent, `asset-sync-${uid}`));
    const linked = await privateTempRoot({ parent });
    expect(linked.refused).toBe(join(parent, `asset-sync-${uid}`));
    expect(linked.path.startsWith(elsewhere)).toBe(false);
    await expectPrivate(linked.path);

    await rm(join(parent, `asset-sync-${uid}`));
    await writeFile(join(parent, `asset-sync-${uid}`), 'not a folder');
    const filed = await privateTempRoot({ parent });
    expect(filed.refused).toBe(join(parent, `asset-sync-${uid}`));
    await expectPrivate(filed.path);
  });

  it('makes a fresh private folder where there are no user ids', async () => {
    const got = await privateTempRoot({ parent, uid: undefined });
    expect(got.refused).toBeNull();
    expect(got.path.startsWith(`${parent}/asset-sync-`)).toBe(true);
    expect((await lstat(got.path)).mode & 0o077).toBe(0);
  });
});
