import { rmSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { executePlan } from '../../main/sync/executor/execute-plan.js';
import { startService, type RunningService } from '../../service/index.js';
import { setUp, writeLocal, type Harness } from './executor-fixture.js';

// The real OS trash, in a home of our own (read when the trash package loads, hence hoisted):
// the test never touches the user's trash, and the files stay on the home's device.
const home = await vi.hoisted(async () => {
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const saved = { HOME: process.env.HOME, XDG_DATA_HOME: process.env.XDG_DATA_HOME };
  const dir = mkdtempSync(join(tmpdir(), 'executor-home-'));
  process.env.HOME = dir;
  process.env.XDG_DATA_HOME = join(dir, 'data');
  return { dir, saved };
});

let service: RunningService;
let h: Harness;

beforeAll(async () => {
  service = await startService();
});
afterAll(async () => {
  await h?.close();
  await service?.stop();
  rmSync(home.dir, { recursive: true, force: true });
  for (const [name, value] of Object.entries(home.saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe.runIf(process.platform === 'linux')('the system trash', () => {
  it('receives a deleted file, and only that file even if its name looks like a pattern', async () => {
    h = await setUp(service);
    const target = await writeLocal(h.root, 'shots/take[1].mov', 'take one');
    await writeLocal(h.root, 'shots/take1.mov', 'a neighbour the pattern would match');

    const result = await executePlan(
      [{ kind: 'delete-local', path: target.path, expectedChecksum: target.checksum, reason: 'test' }],
      h.depsWith({ trash: undefined }),
    );

    expect(result).toMatchObject({ deleted: 1, failed: [] });
    expect(h.activity.map((a) => a.message)).toEqual(['Moved shots/take[1].mov to the trash (deleted on the service)']);
    expect(await readdir(path.join(h.root, 'shots'))).toEqual(['take1.mov']);
    const trashFiles = path.join(home.dir, 'data', 'Trash', 'files');
    const [trashed] = await readdir(trashFiles);
    expect(await readFile(path.join(trashFiles, trashed ?? ''), 'utf8')).toBe('take one');
  });
});
