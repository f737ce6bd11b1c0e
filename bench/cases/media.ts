/**
 * Case 8, initial download of a studio's media tree (about 320 real photos, screenshots, layered
 * PSDs, PDFs, logos and WebP pictures of realistic sizes: bench/lib/media-set.ts) with thumbnails
 * off and on. With them on, the engine runs beside a media service as the app does: each file
 * the sync brings down is queued for its grid picture, drawn by the low-priority worker. The
 * target: thumbnails cost the sync under 10% of its time. Also reported: how long from the start
 * until every file's picture existed (they go on after the sync is done), and the cache's size.
 * Runs alternate (off, on / on, off), each after the machine settled; every copy is checked.
 */
import { join } from 'node:path';
import { createWorkspace, uploadThroughApi } from '../lib/api.js';
import { engineOnce } from '../lib/asset-sync.js';
import type { BenchContext } from '../lib/context.js';
import { ensureMediaTree, mediaSpec } from '../lib/media-set.js';
import { alternate, median, medianSeconds, target, type CaseResult, type Row } from '../lib/measure.js';
import { settleMachine } from '../lib/settle.js';
import { assertLocalCopy } from '../lib/verify.js';

export async function mediaCase(ctx: BenchContext): Promise<CaseResult> {
  const name = 'media';
  const set = await ensureMediaTree(join(ctx.setsDir, ctx.quick ? 'media-quick' : 'media'), mediaSpec(ctx.quick ? 0.1 : 1), ctx.log);
  const { service, tenant, client } = await ctx.service();
  ctx.log(`media: uploading ${set.files.length} files (${(set.bytes / 1e6).toFixed(0)} MB) through the API`);
  const ws = await createWorkspace(service, tenant, 'media');
  await uploadThroughApi(client, ws.workspaceId, set);
  const work = { files: set.files.length, bytes: set.bytes };
  const off: Row = { case: name, tool: 'Asset Sync, thumbnails off', runs: [], work };
  const on: Row = { case: name, tool: 'Asset Sync, thumbnails on', runs: [], work };
  const done: number[] = [];
  const drawn: string[] = [];

  const run = async (row: Row, thumbnails: boolean, i: number): Promise<void> => {
    ctx.log(`media run ${i + 1}/${ctx.runs}: thumbnails ${thumbnails ? 'on' : 'off'}`);
    const root = await ctx.scratch(`media-${thumbnails ? 'on' : 'off'}`);
    await settleMachine();
    const { run: measured, synced } = await engineOnce(
      { service, tenant: ws, root, folder: 'ws', indexPath: join(root, 'index.db'), ...(thumbnails ? { thumbnailsDir: join(root, 'media-cache') } : {}) },
      ctx.child,
    );
    row.runs.push(measured);
    await assertLocalCopy(join(root, 'ws'), set, `media download, thumbnails ${thumbnails ? 'on' : 'off'}`);
    if (synced.pictures) {
      done.push(synced.pictures.doneSeconds);
      drawn.push(`${synced.pictures.drawn}/${synced.pictures.files} pictures, ${synced.pictures.cacheMiB} MiB`);
      if (synced.pictures.drawn < synced.pictures.files) throw new Error(`only ${synced.pictures.drawn} of ${synced.pictures.files} files got a picture`);
    }
  };
  await alternate(ctx.runs, (i) => run(off, false, i), (i) => run(on, true, i));

  const cost = medianSeconds(on) / medianSeconds(off) - 1;
  return {
    rows: [off, on],
    facts: [
      { case: name, what: 'from start until every thumbnail existed (median)', value: `${median(done).toFixed(1)} s` },
      { case: name, what: 'thumbnails made per run', value: drawn.join('; ') },
    ],
    targets: target(name, 'thumbnails cost the sync < 10% of its time', [off, on], () => ({
      met: cost < 0.1,
      detail: `${(cost * 100).toFixed(1)}% (${medianSeconds(off).toFixed(2)} s off, ${medianSeconds(on).toFixed(2)} s on)`,
    })),
  };
}
