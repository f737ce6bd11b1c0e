/**
 * Kill -9 in the middle of a sync: the engine runs in a child process that is SIGKILLed during
 * downloads and during uploads, then restarted until it converges. Nothing may be lost, torn or
 * made twice: every file equals the service's current version byte for byte, each edit is one
 * version, no temp file is left and nothing is written outside the root.
 */
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIRECT_IO_MIN_BYTES } from '../../main/sync/executor/direct-writer.js';
import { bytesFor, convergeWith, faults, idle, localChecksums, remoteChecksums, tempFiles, walkFiles, worlds } from '../helpers/engine.js';
import type { SyncChildConfig } from '../helpers/sync-child.js';
import { after, childConfig, childSync, never, runChild } from '../helpers/sync-process.js';

const world = worlds();
const MiB = 1024 * 1024;

/** Restarts the child until a run ends by itself with everything synced (and the next has nothing to do). */
const runToConvergence = (config: SyncChildConfig) => convergeWith(() => childSync(config), { maxRuns: 6, name: 'the sync after the kills' });

const sizeOf = (i: number): number => MiB + ((i * 1_048_573) % (3 * MiB));

describe('kill -9 during a sync', () => {
  it('converges after kills during downloads and uploads, with nothing lost, torn or made twice', async () => {
    const w = await world({ service: { faults: faults({ latencyMs: 30 }) }, demo: { assets: 0 } });
    const footage = Array.from({ length: 30 }, (_, i) => ({ path: `Footage/Day ${i % 3}/clip-${i}.mov`, bytes: bytesFor(`clip ${i}`, sizeOf(i)) }));
    // Large enough to be written with direct I/O (direct-writer.ts), in whole blocks and a padded tail.
    footage.push({ path: 'Footage/master.mov', bytes: bytesFor('master', DIRECT_IO_MIN_BYTES + 3 * MiB + 1234) });
    for (const f of footage) await w.colleague.createFile(f.path, f.bytes);
    const config = await childConfig(w, { bandwidthLimit: 16 * MiB });
    const dir = join(config.root, w.folderName);
    const partFileExists = async () => (await tempFiles(config.root)).length > 0;
    const masterHalfway = async () => {
      for (const temp of await tempFiles(config.root)) {
        const size = await stat(join(config.root, temp)).then((s) => s.size, () => 0);
        if (size > DIRECT_IO_MIN_BYTES / 2) return true;
      }
      return false;
    };
    const filesDone = (n: number) => async () => (await walkFiles(dir)).filter((p) => p.endsWith('.mov')).length >= n;

    // Downloads: killed while a temp file is being written, after some files, and at a random moment.
    const downloadKills = [partFileExists, masterHalfway, filesDone(8), after(300 + Math.random() * 1200), filesDone(20)];
    const downloadRuns = [];
    for (const killWhen of downloadKills) downloadRuns.push(await runChild(config, killWhen));
    expect(downloadRuns.some((r) => r.outcome === 'killed')).toBe(true);
    await runToConvergence(config);
    expect(await localChecksums(dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));

    // Uploads: new renders and edits of downloaded clips, killed at random moments.
    const renders = Array.from({ length: 30 }, (_, i) => ({ path: `Renders/render-${i}.exr`, bytes: bytesFor(`render ${i}`, sizeOf(i + 7)) }));
    await mkdir(join(dir, 'Renders'));
    const edits = footage.slice(0, 5).map((f, i) => ({ path: f.path, bytes: bytesFor(`edit ${i}`, sizeOf(i + 13)) }));
    for (const f of [...renders, ...edits]) await writeFile(join(dir, ...f.path.split('/')), f.bytes);
    const parents = new Map<string, string>();
    for (const e of edits) {
      const entry = await w.user.assetAt(e.path);
      parents.set(entry.assetId, entry.versionId);
    }

    // Killed once some uploads were committed, and at random moments (mostly mid-PUT).
    const committed = (n: number) => async () => (await w.user.hierarchy()).assets.length >= footage.length + n;
    const uploadKills = [committed(3), after(1500 + Math.random() * 2000), committed(15), after(1500 + Math.random() * 3000)];
    const uploadRuns = [];
    for (const killWhen of uploadKills) uploadRuns.push(await runChild(config, killWhen));
    expect(uploadRuns.some((r) => r.outcome === 'killed')).toBe(true);
    await runToConvergence(config);

    const remote = await remoteChecksums(w.user.client, w.workspaceId);
    expect(await localChecksums(dir)).toEqual(remote);
    expect(remote).toHaveLength(footage.length + renders.length);
    for (const r of renders) expect(await w.user.versions((await w.user.assetAt(r.path)).assetId)).toHaveLength(1);
    for (const [assetId, parent] of parents) {
      const versions = await w.user.versions(assetId);
      expect(versions).toHaveLength(2);
      expect(versions[0]?.commit_parent_id).toBe(parent);
    }
    for (const f of footage.slice(5)) expect(await w.user.versions((await w.user.assetAt(f.path)).assetId)).toHaveLength(1);
    expect(await tempFiles(config.root)).toEqual([]);
    expect(await w.strayFiles()).toEqual([]);

    const last = await runChild(config, never);
    expect(last.code).toBe(0);
    expect(last.report && idle(last.report)).toBe(true);
  }, 300_000);
});
