/**
 * Files that change under the engine: one rewritten over and over while the engine runs is
 * not committed until it stops changing, and one changed after its bytes were sent (between
 * the hash and the commit) is not committed with the bytes it no longer holds.
 */
import { utimes, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { TransferProgress } from '../../shared/engine.js';
import { bytesFor, remoteFiles, sha256, worlds } from '../helpers/engine.js';
import { waitFor } from './local-faults.js';

const world = worlds();

/** Sets a file's times well in the past, so it counts as settled right away. */
const settle = (abs: string): Promise<void> =>
  new Promise((resolve, reject) => utimes(abs, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000), (error) => (error ? reject(error) : resolve())));

describe('a file that keeps changing', () => {
  it('is not committed while it is being rewritten, and once it stops only its last bytes are', async () => {
    const w = await world({ demo: { assets: 0 } });
    // Nextcloud's quiet period: the writer below never leaves the file alone that long.
    const laptop = await w.device('laptop', { quietMs: 2000, engine: { pollIntervalMs: 200, debounceMs: 50 } });
    await laptop.converge();
    await laptop.engine.start();

    const abs = laptop.path('Exports/render.mov');
    await laptop.write('Exports/render.mov', 'frame 0\n');
    let last: Buffer = Buffer.alloc(0);
    for (let frame = 1; frame <= 150; frame += 1) {
      last = bytesFor(`frame ${frame}`, 20_000 + frame * 100);
      await writeFile(abs, last);
      if (frame % 25 === 0) expect((await remoteFiles(w.user.client, w.workspaceId)).has('Exports/render.mov')).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await remoteFiles(w.user.client, w.workspaceId)).has('Exports/render.mov')).toBe(false);

    await waitFor('the finished file on the service', async () => (await remoteFiles(w.user.client, w.workspaceId)).has('Exports/render.mov'));
    const entry = await w.user.assetAt('Exports/render.mov');
    expect(entry.checksum).toBe(sha256(last));
    expect(await w.user.versions(entry.assetId)).toHaveLength(1);
    await laptop.engine.stop();
  }, 60_000);

  it('changed after its bytes were sent is not committed with them; its new bytes are, next', async () => {
    const w = await world({ demo: { assets: 0 } });
    await w.colleague.createFile('Docs/report.txt', 'report, version 1\n');
    const laptop = await w.device('laptop');
    await laptop.converge();
    const asset = await w.user.assetAt('Docs/report.txt');

    const abs = laptop.path('Docs/report.txt');
    const sent = bytesFor('report, version 2', 300_000);
    const meanwhile = bytesFor('report, version 3', 300_000);
    await laptop.write('Docs/report.txt', sent);
    await settle(abs);
    // The moment the upload's last byte is handed over, before the engine commits it.
    let changed = false;
    laptop.engine.on('transfer', (t: TransferProgress) => {
      if (!changed && t.direction === 'upload' && t.path === 'Docs/report.txt' && t.state === 'done') {
        changed = true;
        writeFileSync(abs, meanwhile);
      }
    });

    // One cycle: the next would upload the new bytes (the check that matters is on this one).
    const report = await laptop.sync({ maxRounds: 1 });
    expect(changed).toBe(true);
    expect(report.workspaces[0]?.uploaded).toBe(0);
    expect(report.workspaces.flatMap((ws) => ws.problems).some((p) => p.kind === 'unstable' && p.path === 'Docs/report.txt')).toBe(true);
    expect((await w.user.versions(asset.assetId)).map((v) => v.checksum)).toEqual([asset.checksum]);

    await laptop.converge();
    const versions = await w.user.versions(asset.assetId);
    expect(versions.map((v) => v.checksum)).toEqual([sha256(meanwhile), asset.checksum]);
    expect((await laptop.read('Docs/report.txt')).equals(meanwhile)).toBe(true);
  });
});
