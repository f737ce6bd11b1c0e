/**
 * The Files view's folder listing against a real index and a real folder: the first page of a
 * large folder is the start of the whole listing, and describing it reads the stamps of its own
 * rows only, not of every file in the folder.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listFolder, listFolderStart, type ListFolderInput } from '../../main/app-api/files.js';
import { openIndex, type SyncIndex } from '../../main/index/sync-index.js';
import { readStamp } from '../../main/local/stamp.js';
import { remoteFile, workspace } from './index-fixtures.js';

let dir: string;
let index: SyncIndex;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'list-folder-'));
  mkdirSync(join(dir, 'root', 'Frames', 'Shot 2'), { recursive: true });
  index = openIndex(join(dir, 'index.db'));
  index.workspaces.add({ ...workspace('ws-1'), localPath: join(dir, 'root') });
});

afterEach(() => {
  index.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A random order of writing, printed for replay: the listing's order must not depend on it. */
const seed = Number(process.env.LIST_FOLDER_SEED ?? Math.floor(Math.random() * 2 ** 31));

function shuffled<T>(items: T[]): T[] {
  let state = seed;
  const next = () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe(`a folder listing (LIST_FOLDER_SEED=${seed})`, () => {
  it('answers its first page from the stamps of that page alone, in the order of the whole listing', async () => {
    const names = Array.from({ length: 500 }, (_, i) => `frame-${i}.png`);
    for (const name of shuffled(names)) writeFileSync(join(dir, 'root', 'Frames', name), name);
    // Only on the service: listed in its place by name, with nothing on disk to stat.
    index.remote.replaceAll('ws-1', { folders: [], files: [remoteFile(1, { path: 'Frames/frame-10a.png' }), remoteFile(2, { path: 'Frames/Shot 1/a.png' })], sequence: '1' });
    const stamped: string[] = [];
    const input: ListFolderInput = {
      index,
      workspaceId: 'ws-1',
      folder: 'Frames',
      problems: [],
      selfUserId: null,
      stamp: (absPath) => {
        stamped.push(absPath);
        return readStamp(absPath);
      },
    };

    const whole = await listFolder(input);
    expect(whole).toHaveLength(503);
    expect(stamped).toHaveLength(500);
    expect(whole.slice(0, 4).map((e) => e.name)).toEqual(['Shot 1', 'Shot 2', 'frame-0.png', 'frame-1.png']);
    expect(whole.findIndex((e) => e.name === 'frame-10a.png')).toBe(whole.findIndex((e) => e.name === 'frame-10.png') + 1);

    stamped.length = 0;
    const start = await listFolderStart(input, 40);
    expect(start.total).toBe(503);
    expect(start.entries).toEqual(whole.slice(0, 40));
    // Two folders and the service-only file have no stamp to read.
    expect(stamped.length).toBeLessThanOrEqual(40);
    expect(stamped.length).toBeGreaterThanOrEqual(37);
  });

  it('answers a small folder whole as its first page', async () => {
    writeFileSync(join(dir, 'root', 'Frames', 'a.png'), 'a');
    const input: ListFolderInput = { index, workspaceId: 'ws-1', folder: 'Frames', problems: [], selfUserId: null };
    const start = await listFolderStart(input, 40);
    expect(start).toEqual({ entries: await listFolder(input), total: 2 });
    expect(start.entries.map((e) => [e.name, e.state])).toEqual([
      ['Shot 2', 'pending-upload'],
      ['a.png', 'pending-upload'],
    ]);
  });
});
