/**
 * Case 1, initial download of a workspace of small files into an empty folder: Asset Sync
 * (`asset-sync sync --once`, start to exit) vs `rclone copy` from `rclone serve webdav` of the same files vs curl fetching the
 * same signed URLs on 4 keep-alive connections (the HTTP floor); that floor with each file
 * fsynced as Asset Sync does, and also hashed first (Asset Sync checks every file); and curl
 * through the API's download redirect (two requests a file, as Asset Sync makes). Each run starts
 * with the machine settled (`settleMachine`), and every other run puts the peers first, so no
 * tool always inherits what the one before left in memory. Targets: within
 * 1.5x of curl, more than 10x faster than rclone. Every copy is checked byte for byte after its run.
 *
 * Copies are kept until the whole bench ends (the run folder goes then), not removed after each
 * run: this disk is ext4 without a journal, where a file created within a minute (six when the
 * inode table is still dirty) of deleting thousands costs about 0.2 ms more in `openat`, because
 * the allocator skips each recently freed inode (`recently_deleted()` in fs/ext4/ialloc.c). The
 * run after a removal paid about 2 s of CPU for a cost that its own bench had made.
 */
import { join } from 'node:path';
import { apiToken, createWorkspace, signedDownloads, uploadThroughApi } from '../lib/api.js';
import { syncOnce } from '../lib/asset-sync.js';
import { apiDownloadJobs, curlApiDownload } from '../lib/curl-api.js';
import type { BenchContext } from '../lib/context.js';
import { ensureTree } from '../lib/dataset.js';
import { alternate, medianSeconds, target, timesOf, type CaseResult, type Row } from '../lib/measure.js';
import { cell, peers } from '../lib/report.js';
import { curlBatch, rcloneCopy, serveWebdav, WEBDAV_REMOTE } from '../lib/peers.js';
import { settleMachine } from '../lib/settle.js';
import type { Tenant } from '../lib/service-process.js';
import { assertLocalCopy } from '../lib/verify.js';
import { SMALL_WORKSPACE, smallSetDir } from './upload.js';

export async function downloadCase(ctx: BenchContext): Promise<CaseResult> {
  const name = 'download';
  const set = await ensureTree(smallSetDir(ctx), ctx.sizes.small);
  const { service, tenant, client } = await ctx.service();
  let ws = ctx.fixtures.get(SMALL_WORKSPACE) as Tenant | undefined;
  if (!ws) {
    ctx.log(`download: uploading ${set.files.length} files through the API first`);
    ws = await createWorkspace(service, tenant, 'download');
    await uploadThroughApi(client, ws.workspaceId, set);
  }
  const urls = ctx.uses('curl') ? await signedDownloads(client, ws.workspaceId, set) : undefined;
  const work = { files: set.files.length };
  const as: Row = { case: name, tool: 'Asset Sync (sync --once)', runs: [], work };
  const rclone: Row = { case: name, tool: 'rclone copy ← serve webdav', runs: [], work };
  const curl: Row = { case: name, tool: 'curl floor (4 keep-alive)', runs: [], work };
  const curlDurable: Row = { case: name, tool: 'curl floor + fsync each file', runs: [], work };
  const curlGuarded: Row = { case: name, tool: 'curl floor + SHA-256 + fsync each file', runs: [], work };
  const curlApi: Row = { case: name, tool: 'curl -L through the API (2 requests a file)', runs: [], work };
  const dav = ctx.uses('rclone') ? await serveWebdav(set.dir) : undefined;

  const runAssetSync = async (i: number): Promise<void> => {
    ctx.log(`download run ${i + 1}/${ctx.runs}: Asset Sync`);
    const scratch = await ctx.scratch('download-as');
    const root = join(scratch, 'root');
    await settleMachine();
    const { run } = await syncOnce({ service, tenant: ws, root, folder: 'ws', home: join(scratch, 'state') }, ctx.child);
    as.runs.push(run);
    await assertLocalCopy(join(root, 'ws'), set, 'Asset Sync download');
  };

  const runPeers = async (i: number): Promise<void> => {
    if (dav) {
      ctx.log(`download run ${i + 1}/${ctx.runs}: rclone`);
      const rcloneDir = await ctx.scratch('download-rclone');
      await settleMachine();
      rclone.runs.push(await rcloneCopy(WEBDAV_REMOTE, rcloneDir, dav));
      await assertLocalCopy(rcloneDir, set, 'rclone download');
    }
    if (urls) {
      ctx.log(`download run ${i + 1}/${ctx.runs}: curl`);
      const floors = [[curl, {}], [curlDurable, { durable: true }], [curlGuarded, { durable: true, verified: true }]] as const;
      for (const [row, guarantees] of floors) {
        const curlDir = await ctx.scratch('download-curl');
        const files = join(curlDir, 'files');
        await settleMachine();
        row.runs.push(await curlBatch(urls.map((u) => ({ url: u.url, path: join(files, u.file.rel) })), 'get', curlDir, 4, guarantees));
        await assertLocalCopy(files, set, 'curl download');
      }
      const curlDir = await ctx.scratch('download-curl-api');
      const files = join(curlDir, 'files');
      const jobs = await apiDownloadJobs(service, client, ws, set, files);
      const token = await apiToken(service, ws);
      await settleMachine();
      curlApi.runs.push(await curlApiDownload(jobs, token, ws, curlDir));
      await assertLocalCopy(files, set, 'curl download through the API');
    }
  };

  try {
    await alternate(ctx.runs, runAssetSync, runPeers);
  } finally {
    await dav?.stop();
  }
  const asSeconds = medianSeconds(as);
  return {
    rows: [as, rclone, curl, curlDurable, curlGuarded, curlApi],
    targets: [
      ...target(name, 'within 1.5x of curl', [as, curl], () => ({
        met: asSeconds <= 1.5 * medianSeconds(curl),
        detail: `${(asSeconds / medianSeconds(curl)).toFixed(2)}x curl's time${timesOf(asSeconds, curlDurable, 'curl + fsync')}${timesOf(asSeconds, curlGuarded, 'curl + SHA-256 + fsync')}${timesOf(asSeconds, curlApi, 'curl through the API')}`,
      })),
      ...target(name, '> 10x faster than rclone', [as, rclone], () => ({ met: medianSeconds(rclone) > 10 * asSeconds, detail: `${(medianSeconds(rclone) / asSeconds).toFixed(1)}x faster` })),
    ],
    summary: [
      {
        what: `download, ${set.files.length.toLocaleString('en')} files of ${ctx.sizes.small.minBytes / 1024}–${ctx.sizes.small.maxBytes / 1024} KiB`,
        assetSync: cell(as),
        peers: peers(['curl', curl], ['curl + fsync', curlDurable], ['curl + SHA-256 + fsync', curlGuarded], ['curl through the API', curlApi], ['rclone', rclone]),
      },
    ],
  };
}
