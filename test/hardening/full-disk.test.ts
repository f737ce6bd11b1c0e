/**
 * A full disk (local-faults.ts `smallDisk`: a real 2 MiB tmpfs where the test may mount one,
 * a file size limit otherwise): the downloads that do not fit fail with a problem that says so,
 * no file is torn and nothing synced is lost, and once there is room the sync converges.
 */
import { describe, expect, it } from 'vitest';
import { bytesFor, convergeWith, localFiles, localChecksums, remoteChecksums, sha256, tempFiles, worlds } from '../helpers/engine.js';
import { smallDisk } from './local-faults.js';

const world = worlds();

describe('a full disk', () => {
  it('is reported, loses nothing, and the sync converges once there is room', async () => {
    const w = await world({ demo: { assets: 0 } });
    const first = 'the first version of the brief\n';
    await w.colleague.createFile('Docs/brief.txt', first);
    const disk = await smallDisk(w);
    try {
      expect((await disk.sync()).ok).toBe(true);

      const brief = await w.colleague.assetAt('Docs/brief.txt');
      await w.colleague.newVersion(brief.assetId, bytesFor('brief v2', disk.tooBig));
      for (let i = 0; i < 3; i += 1) await w.colleague.createFile(`Renders/render-${i}.bin`, bytesFor(`render ${i}`, disk.tooBig));
      await w.colleague.createFile('Docs/small.txt', 'fits anywhere\n');

      const full = await disk.sync();
      expect(full.ok).toBe(false);
      const problems = full.workspaces.flatMap((ws) => ws.problems);
      const diskProblems = problems.filter((p) => p.path !== null && /the disk is full|larger than this disk/.test(p.message));
      expect(diskProblems.length, `${disk.kind}: ${JSON.stringify(problems)}`).toBeGreaterThan(0);
      for (const p of diskProblems) expect(p.message).toContain(`"${p.path}" could not be synced`);

      // Nothing torn, nothing lost: each file holds the service's current bytes, or (the brief)
      // the version synced before; the downloads that did not fit left no partial file behind.
      const remote = new Map(await remoteChecksums(w.user.client, w.workspaceId));
      const local = await localFiles(disk.dir);
      expect(local.has('Docs/brief.txt')).toBe(true);
      for (const [path, checksum] of local) expect([remote.get(path), path === 'Docs/brief.txt' ? sha256(first) : null]).toContain(checksum);
      expect(await tempFiles(disk.dir)).toEqual([]);

      await disk.makeRoom();
      await convergeWith(() => disk.sync());
      expect(await localChecksums(disk.dir)).toEqual([...remote].sort());
      expect(await tempFiles(disk.dir)).toEqual([]);
    } finally {
      await disk.close();
    }
  }, 60_000);
});
