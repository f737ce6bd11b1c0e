/**
 * Case 2, initial upload of a tree of small files into an empty workspace: Asset Sync
 * (`asset-sync sync --once` from a filled root, start to exit) vs `rclone copy` to `rclone serve webdav` vs the curl PUT floor
 * (signed upload URLs asked up front, 4 keep-alive connections) vs curl through the API (the
 * three requests a file Asset Sync makes: ticket, PUT, asset record). Every other run puts the
 * peers first. Targets: ≥ 500 files/s, within 2x of the floor. The first Asset Sync workspace is
 * left for the download case.
 */
import { join } from 'node:path';
import { apiToken, createWorkspace, makeFolders, signedUploads } from '../lib/api.js';
import { syncOnce } from '../lib/asset-sync.js';
import { curlApiUpload } from '../lib/curl-api.js';
import { removeDir, type BenchContext } from '../lib/context.js';
import { ensureTree } from '../lib/dataset.js';
import { alternate, medianSeconds, target, timesOf, type CaseResult, type Row } from '../lib/measure.js';
import { cell, peers } from '../lib/report.js';
import { curlBatch, rcloneCopy, serveWebdav, WEBDAV_REMOTE } from '../lib/peers.js';
import { settleMachine } from '../lib/settle.js';
import { assertLocalCopy, assertRemoteCopy } from '../lib/verify.js';

export const SMALL_WORKSPACE = 'small-workspace';
export const smallSetDir = (ctx: BenchContext): string => join(ctx.setsDir, `small-${ctx.sizes.small.files}`);

export async function uploadCase(ctx: BenchContext): Promise<CaseResult> {
  const name = 'upload';
  const set = await ensureTree(smallSetDir(ctx), ctx.sizes.small);
  const { service, tenant, client } = await ctx.service();
  const work = { files: set.files.length };
  const as: Row = { case: name, tool: 'Asset Sync (sync --once)', runs: [], work };
  const rclone: Row = { case: name, tool: 'rclone copy → serve webdav', runs: [], work };
  const curl: Row = { case: name, tool: 'curl PUT floor (4 keep-alive)', runs: [], work };
  const curlApi: Row = { case: name, tool: 'curl through the API (3 requests a file)', runs: [], work };

  const runAssetSync = async (i: number): Promise<void> => {
    ctx.log(`upload run ${i + 1}/${ctx.runs}: Asset Sync`);
    const ws = await createWorkspace(service, tenant, `upload-as-${i}`);
    const home = await ctx.scratch('upload-as');
    await settleMachine();
    const { run, counts } = await syncOnce({ service, tenant: ws, root: set.root, folder: set.folder, home }, ctx.child);
    if (counts.uploaded !== set.files.length) throw new Error(`upload: ${counts.uploaded} of ${set.files.length} files uploaded`);
    as.runs.push(run);
    await assertRemoteCopy(client, ws.workspaceId, set, 'Asset Sync upload');
    if (!ctx.fixtures.has(SMALL_WORKSPACE)) ctx.fixtures.set(SMALL_WORKSPACE, ws);
  };

  const runPeers = async (i: number): Promise<void> => {
    if (ctx.uses('rclone')) {
      ctx.log(`upload run ${i + 1}/${ctx.runs}: rclone`);
      const davDir = await ctx.scratch('upload-dav');
      const dav = await serveWebdav(davDir);
      try {
        await settleMachine();
        rclone.runs.push(await rcloneCopy(set.dir, WEBDAV_REMOTE, dav));
      } finally {
        await dav.stop();
      }
      await assertLocalCopy(davDir, set, 'rclone upload');
      await removeDir(davDir);
    }

    if (ctx.uses('curl')) {
      ctx.log(`upload run ${i + 1}/${ctx.runs}: curl`);
      const floorWs = await createWorkspace(service, tenant, `upload-curl-${i}`);
      const tickets = await signedUploads(client, floorWs.workspaceId, set);
      const curlDir = await ctx.scratch('upload-curl');
      await settleMachine();
      curl.runs.push(await curlBatch(tickets.map((t) => ({ url: t.url, path: join(set.dir, t.file.rel) })), 'put', curlDir));

      const apiWs = await createWorkspace(service, tenant, `upload-curl-api-${i}`);
      const folderIds = await makeFolders(client, apiWs.workspaceId, set);
      const apiDir = await ctx.scratch('upload-curl-api');
      await settleMachine();
      curlApi.runs.push(await curlApiUpload(service, await apiToken(service, apiWs), apiWs, set, folderIds, apiDir));
      await assertRemoteCopy(client, apiWs.workspaceId, set, 'curl upload through the API');
    }
  };

  // The first run is Asset Sync's: it leaves the workspace the download case reads.
  await alternate(ctx.runs, runAssetSync, runPeers);

  const asSeconds = medianSeconds(as);
  const filesPerSecond = set.files.length / asSeconds;
  return {
    rows: [as, rclone, curl, curlApi],
    targets: [
      ...target(name, '≥ 500 files/s', [as], () => ({ met: filesPerSecond >= 500, detail: `${filesPerSecond.toFixed(0)} files/s` })),
      ...target(name, 'within 2x of the curl PUT floor', [as, curl], () => ({ met: asSeconds <= 2 * medianSeconds(curl), detail: `${(asSeconds / medianSeconds(curl)).toFixed(2)}x the floor's time${timesOf(asSeconds, curlApi, 'curl through the API')}` })),
    ],
    summary: [{ what: `upload, ${set.files.length.toLocaleString('en')} files of ${ctx.sizes.small.minBytes / 1024}–${ctx.sizes.small.maxBytes / 1024} KiB`, assetSync: cell(as), peers: peers(['curl PUT floor', curl], ['curl through the API', curlApi], ['rclone', rclone]) }],
  };
}
