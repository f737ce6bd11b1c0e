/**
 * A synced file that cannot be written while the service has a new version of it
 * (local-faults.ts `makeUnwritable`: immutable, on a read-only mount, or read-only in a
 * read-only folder, whichever really stops this process): the problem says so, the file keeps
 * its bytes, everything else syncs, and the new version lands once the file is writable again.
 */
import { describe, expect, it } from 'vitest';
import { localChecksums, remoteChecksums, sha256, tempFiles, worlds } from '../helpers/engine.js';
import { makeUnwritable, waitFor } from './local-faults.js';

const world = worlds();

describe('a read-only file', () => {
  it('is reported, keeps its bytes, and gets the new version once writable', async () => {
    const w = await world({ demo: { assets: 0 } });
    await w.colleague.createFile('Contracts/signed.txt', 'signed, version 1\n');
    const laptop = await w.device('laptop');
    await laptop.converge();

    const lock = await makeUnwritable(laptop.path('Contracts/signed.txt'));
    try {
      const signed = await w.colleague.assetAt('Contracts/signed.txt');
      await w.colleague.newVersion(signed.assetId, 'signed, version 2\n');
      await w.colleague.createFile('Elsewhere/other.txt', 'not held up by the read-only file\n');

      const report = await laptop.sync();
      expect(report.ok).toBe(false);
      const problems = report.workspaces.flatMap((ws) => ws.problems).filter((p) => p.path === 'Contracts/signed.txt');
      expect(problems.length, `${lock.kind}: ${JSON.stringify(report)}`).toBeGreaterThan(0);
      for (const p of problems) expect(p.message).toMatch(/"Contracts\/signed\.txt" could not be synced: (Asset Sync is not allowed to change it|the disk is read-only)/);
      expect((await laptop.read('Contracts/signed.txt')).toString()).toBe('signed, version 1\n');
      expect((await laptop.read('Elsewhere/other.txt')).toString()).toBe('not held up by the read-only file\n');
    } finally {
      await lock.undo();
    }

    await laptop.converge();
    expect((await laptop.read('Contracts/signed.txt')).toString()).toBe('signed, version 2\n');
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(await tempFiles(laptop.root)).toEqual([]);
    expect(await w.strayFiles()).toEqual([]);
  });

  it('does not stop a sync --once from waiting for a file still being written', async () => {
    const w = await world({ demo: { assets: 0 } });
    await w.colleague.createFile('Contracts/signed.txt', 'signed, version 1\n');
    const laptop = await w.device('laptop', { quietMs: 500 });
    await laptop.converge();

    const lock = await makeUnwritable(laptop.path('Contracts/signed.txt'));
    let last = '';
    try {
      const signed = await w.colleague.assetAt('Contracts/signed.txt');
      await w.colleague.newVersion(signed.assetId, 'signed, version 2\n');
      // A program still writing its file when the sync starts, and for a while after.
      await laptop.write('Exports/log.txt', 'line 0\n');
      const writer = (async () => {
        for (let i = 1; i <= 12; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          last += `line ${i}\n`;
          await laptop.write('Exports/log.txt', `line 0\n${last}`);
        }
      })();
      const report = await laptop.sync();
      await writer;
      expect(report.ok).toBe(false);
      const problems = report.workspaces.flatMap((ws) => ws.problems);
      expect(problems.some((p) => p.path === 'Contracts/signed.txt')).toBe(true);
      const uploaded = await w.user.assetAt('Exports/log.txt');
      expect(uploaded.checksum).toBe(sha256(`line 0\n${last}`));
    } finally {
      await lock.undo();
    }
    await laptop.converge();
    expect(await localChecksums(laptop.dir)).toEqual(await remoteChecksums(w.user.client, w.workspaceId));
    expect(await tempFiles(laptop.root)).toEqual([]);
    expect(await w.strayFiles()).toEqual([]);
  });

  it('while watching, is retried after a backoff, not over and over', async () => {
    const w = await world({ demo: { assets: 0 } });
    await w.colleague.createFile('Contracts/signed.txt', 'signed, version 1\n');
    const laptop = await w.device('laptop', { engine: { pollIntervalMs: 60_000 } });
    await laptop.converge();
    const made = await makeUnwritable(laptop.path('Contracts/signed.txt'));
    let undone = false;
    const lock = { undo: async (): Promise<void> => void (undone || ((undone = true), await made.undo())) };
    let failures = 0;
    try {
      laptop.engine.on('problem', (p) => {
        if (p.path === 'Contracts/signed.txt') failures += 1;
      });
      await laptop.engine.start();
      const signed = await w.colleague.assetAt('Contracts/signed.txt');
      await w.colleague.newVersion(signed.assetId, 'signed, version 2\n');
      laptop.engine.trigger(w.workspaceId);
      await waitFor('the first failure', () => failures > 0);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      // The test backoff grows from 50 ms to 500 ms: a handful of tries in 3 s, where retrying
      // at once made hundreds (each an error, an activity line and a status event).
      expect(failures).toBeLessThan(30);
      expect((await laptop.read('Contracts/signed.txt')).toString()).toBe('signed, version 1\n');
      // Once writable, the next retry lands the new version on its own.
      await lock.undo();
      await waitFor('the new version on disk', async () => (await laptop.read('Contracts/signed.txt')).toString() === 'signed, version 2\n');
    } finally {
      await laptop.engine.stop();
      await lock.undo();
    }
  });
});
