/**
 * The workspace's `usage` (its active assets and the bytes of their current versions) follows
 * every change to its assets, in a random order of changes: the service keeps a count for as
 * long as the workspace's sequence stays where it was counted. WORKSPACE_USAGE_SEED=n replays
 * the order of a failed run.
 */
import { describe, expect, it } from 'vitest';
import { bytesFor, worlds, type World } from '../helpers/engine.js';
import { runRng } from '../helpers/run-seed.js';

const world = worlds();
const rng = runRng('WORKSPACE_USAGE_SEED');

/** What `usage` must say: counted from the listing. */
async function expectedUsage(w: World): Promise<{ assets: number; bytes: number }> {
  const listing = await w.user.hierarchy();
  return { assets: listing.assets.length, bytes: listing.assets.reduce((sum, a) => sum + a.size, 0) };
}

/** The workspace as the client reads it keeps the fields it does not use (`usage` among them). */
const usageOf = async (w: World): Promise<unknown> => ((await w.user.client.getWorkspace(w.workspaceId)) as { usage?: unknown }).usage;

describe('the workspace usage', () => {
  it('follows every change to the workspace\'s assets', async () => {
    const w = await world({ demo: { assets: 4 } });
    const random = rng.fork('changes');
    const actor = w.colleague;
    const ws = w.workspaceId;
    let made = 0;
    const anyAsset = async (): Promise<string> => random.pick((await actor.hierarchy()).assets).id;
    const deleted: string[] = [];
    const changes: Record<string, () => Promise<unknown>> = {
      'a new file': async () => actor.createFile(`Usage/new-${made++}.bin`, bytesFor(`new ${made}`, random.int(1, 9000))),
      'a new version': async () => actor.newVersion(await anyAsset(), bytesFor(`version ${random.next()}`, random.int(1, 9000))),
      'a deleted file': async () => {
        const id = await anyAsset();
        await actor.client.deleteAssets(ws, [id]);
        deleted.push(id);
      },
      'a restored file': async () => {
        const id = deleted.pop();
        if (id !== undefined) await actor.client.restoreAsset(ws, id);
      },
      'a deleted current version': async () => {
        const id = await anyAsset();
        const versions = await actor.versions(id);
        const current = versions.reduce((a, b) => (a.version_number > b.version_number ? a : b));
        if (versions.length > 1) await actor.client.deleteVersion(ws, id, current.id);
      },
      'a renamed file': async () => actor.client.updateAsset(ws, await anyAsset(), { file_name: `renamed-${made++}.bin` }),
      'a deleted folder': async () => {
        const folders = (await actor.hierarchy()).folders;
        if (folders.length > 0) await actor.client.deleteFolder(ws, random.pick(folders).id, { recursive: true });
      },
    };
    const names = Object.keys(changes);
    for (let round = 0; round < 24; round++) {
      // Asked before each change too: the count kept must not outlive it.
      expect(await usageOf(w)).toEqual(await expectedUsage(w));
      const name = random.pick(names);
      if ((await actor.hierarchy()).assets.length < 2 && name !== 'a new file') await changes['a new file']?.();
      await changes[name]?.();
      expect(await usageOf(w), `after ${name} (round ${round})`).toEqual(await expectedUsage(w));
    }
  });
});
