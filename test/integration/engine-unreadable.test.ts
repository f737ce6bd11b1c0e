/**
 * An asset the service lists in a form the client cannot use (here a negative size, which no
 * bytes have) is unknown, never absent: the synced file stays on disk, a local deletion of it is
 * not carried to the service, the rest of the listing syncs as usual, and the user is told which
 * item was left alone. The service lists in full at every cycle (no changes feed), so every
 * cycle meets the unreadable entry.
 */
import { unlink } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { faults, worlds } from '../helpers/engine.js';

const world = worlds();

describe('an asset the listing sends unreadable', () => {
  it('is left alone on both sides while the rest syncs, and the user is told which', async () => {
    const w = await world({ service: { faults: faults({ routes: [{ method: 'GET', path: '/workspaces/changes', answer: 404 }] }) } });
    const laptop = await w.device('laptop');
    expect((await laptop.converge()).ok).toBe(true);
    const path = 'Docs/budget.xlsx';
    const budget = await w.user.assetAt(path);
    const before = await laptop.read(path);

    // The service now lists the asset with a size no bytes have.
    w.service.db.prepare('UPDATE asset_versions SET size = -1 WHERE id = ?').run(budget.versionId);
    const other = await w.user.assetAt('Docs/asset-naming.md');
    await w.colleague.newVersion(other.assetId, 'the rest of the listing still syncs\n');

    const report = await laptop.sync();
    expect(await laptop.read(path)).toEqual(before);
    expect(await laptop.read('Docs/asset-naming.md')).toEqual(Buffer.from('the rest of the listing still syncs\n'));
    const problems = report.workspaces.flatMap((ws) => ws.problems).map((p) => p.message);
    expect(problems.some((m) => m.includes(budget.assetId))).toBe(true);

    // A local deletion of the unknown file is not carried to the service.
    await unlink(laptop.path(path));
    await laptop.sync();
    const row = w.service.db.prepare('SELECT is_active FROM assets WHERE id = ?').get(budget.assetId) as { is_active: number } | undefined;
    expect(row?.is_active).toBe(1);
  });
});
