/**
 * Case 4, large files down and up: one 2 GiB file, then 3 files of 256 MiB. Asset Sync
 * (`asset-sync sync --once` each way, start to exit) vs curl on the same signed URLs (`curl -o` / `curl -T`) vs rclone over
 * webdav, in MB/s (10^6 bytes). Two more curl floors add what Asset Sync does before it calls a
 * file downloaded: an fsync (the floor of a download that survives a power cut), and a SHA-256
 * check before it (the floor with all of Asset Sync's guarantees). Uploads get one more floor
 * too: SHA-256 of the file, then `curl -T`, since the API wants the checksum before it hands
 * out the signed URL.
 * Every run starts with the machine settled (`settleMachine`: no dirty pages and no freshly freed
 * memory left by the run before), and every other round puts the peers first, uploads and
 * downloads alike; no tool gets an untimed run the others do not. Every copy is checked by SHA-256. Targets: the large file at least at curl's speed with a peak RSS under
 * 200 MB; the medium files ≥ 70% of curl, RSS < 300 MB.
 */
import { join } from 'node:path';
import { createWorkspace, signedDownloads, signedUploads } from '../lib/api.js';
import { syncOnce } from '../lib/asset-sync.js';
import { removeDir, type BenchContext } from '../lib/context.js';
import { ensureBigFiles, warmPageCache, type DataSet } from '../lib/dataset.js';
import { alternate, medianRss, medianSeconds, target, throughput, type CaseResult, type Row, type SummaryLine, type Target } from '../lib/measure.js';
import { curlBatch, rcloneCopy, serveWebdav, WEBDAV_REMOTE } from '../lib/peers.js';
import { settleMachine } from '../lib/settle.js';
import type { Tenant } from '../lib/service-process.js';
import { assertLocalCopy, assertRemoteCopy } from '../lib/verify.js';

interface Goal {
  /** Share of curl's throughput Asset Sync must reach. */
  share: number;
  rssMiB: number;
}

export async function largeCase(ctx: BenchContext): Promise<CaseResult> {
  const { large, medium } = ctx.sizes;
  const big = await ensureBigFiles(join(ctx.setsDir, `large-1x${large.bytes}`), { files: 1, bytes: large.bytes });
  const mid = await ensureBigFiles(join(ctx.setsDir, `large-${medium.files}x${medium.bytes}`), medium);
  const a = await measureSet(ctx, `large ${label(big)}`, big, { share: 1, rssMiB: 200 });
  const b = await measureSet(ctx, `large ${label(mid)}`, mid, { share: 0.7, rssMiB: 300 });
  return { rows: [...a.rows, ...b.rows], targets: [...a.targets, ...b.targets], summary: [...a.summary, ...b.summary] };
}

function label(set: DataSet): string {
  const each = set.files[0]?.size ?? 0;
  const size = each >= 1024 ** 3 ? `${each / 1024 ** 3} GiB` : `${each / 1024 ** 2} MiB`;
  return `${set.files.length}×${size}`;
}

async function measureSet(ctx: BenchContext, name: string, set: DataSet, goal: Goal): Promise<{ rows: Row[]; targets: Target[]; summary: SummaryLine[] }> {
  const { service, tenant, client } = await ctx.service();
  const work = { bytes: set.bytes };
  const row = (tool: string, group: 'down' | 'up'): Row => ({ case: name, tool, runs: [], work, group });
  const asUp = row('Asset Sync upload', 'up');
  const curlUp = row('curl -T (signed URL)', 'up');
  const curlHashedUp = row('SHA-256, then curl -T', 'up');
  const rcloneUp = row('rclone copy → webdav', 'up');
  const asDown = row('Asset Sync download', 'down');
  const curlDown = row('curl -o (signed URL)', 'down');
  const curlDurable = row('curl -o + fsync (durable floor)', 'down');
  const curlGuarded = row('curl -o + SHA-256 + fsync', 'down');
  const rcloneDown = row('rclone copy ← webdav', 'down');
  const parallel = Math.min(4, set.files.length);
  let kept: Tenant | undefined;

  await warmPageCache(set);
  const uploadAssetSync = async (i: number): Promise<void> => {
    ctx.log(`${name} upload run ${i + 1}/${ctx.runs}: Asset Sync`);
    const ws = await createWorkspace(service, tenant, `large-as-${i}`);
    const home = await ctx.scratch('large-up-as');
    await settleMachine();
    asUp.runs.push((await syncOnce({ service, tenant: ws, root: set.root, folder: set.folder, home }, ctx.child)).run);
    await assertRemoteCopy(client, ws.workspaceId, set, `${name} Asset Sync upload`);
    if (kept) await deleteAll(ctx, ws);
    else kept = ws;
  };
  const uploadPeers = async (i: number): Promise<void> => {
    ctx.log(`${name} upload run ${i + 1}/${ctx.runs}: peers`);
    if (ctx.uses('curl')) {
      const scratch = await ctx.scratch('large-up-curl');
      const floorWs = await createWorkspace(service, tenant, `large-curl-${i}`);
      const tickets = await signedUploads(client, floorWs.workspaceId, set);
      await settleMachine();
      curlUp.runs.push(await curlBatch(tickets.map((t) => ({ url: t.url, path: join(set.dir, t.file.rel) })), 'put', scratch, parallel));
      const hashedWs = await createWorkspace(service, tenant, `large-curl-hashed-${i}`);
      const hashedTickets = await signedUploads(client, hashedWs.workspaceId, set);
      await settleMachine();
      curlHashedUp.runs.push(await curlBatch(hashedTickets.map((t) => ({ url: t.url, path: join(set.dir, t.file.rel) })), 'put', scratch, parallel, { verified: true }));
    }
    if (ctx.uses('rclone')) {
      const davDir = await ctx.scratch('large-up-dav');
      const dav = await serveWebdav(davDir);
      try {
        await settleMachine();
        rcloneUp.runs.push(await rcloneCopy(set.dir, WEBDAV_REMOTE, dav));
      } finally {
        await dav.stop();
      }
      await assertLocalCopy(davDir, set, `${name} rclone upload`);
      await removeDir(davDir);
    }
  };
  await alternate(ctx.runs, uploadAssetSync, uploadPeers);

  if (!kept) throw new Error('no run');
  const source = kept;
  const urls = ctx.uses('curl') ? await signedDownloads(client, source.workspaceId, set) : undefined;
  const dav = ctx.uses('rclone') ? await serveWebdav(set.dir) : undefined;
  try {
    const runAssetSync = async (i: number): Promise<void> => {
      ctx.log(`${name} download run ${i + 1}/${ctx.runs}: Asset Sync`);
      const scratch = await ctx.scratch('large-down-as');
      const root = join(scratch, 'root');
      await settleMachine();
      asDown.runs.push((await syncOnce({ service, tenant: source, root, folder: 'ws', home: join(scratch, 'state') }, ctx.child)).run);
      await assertLocalCopy(join(root, 'ws'), set, `${name} Asset Sync download`);
      await removeDir(scratch);
    };
    const runPeers = async (i: number): Promise<void> => {
      ctx.log(`${name} download run ${i + 1}/${ctx.runs}: peers`);
      if (urls) {
        const floors = [[curlDown.runs, {}], [curlDurable.runs, { durable: true }], [curlGuarded.runs, { durable: true, verified: true }]] as const;
        for (const [runs, guarantees] of floors) {
          const curlDir = await ctx.scratch('large-down-curl');
          await settleMachine();
          runs.push(await curlBatch(urls.map((u) => ({ url: u.url, path: join(curlDir, 'files', u.file.rel) })), 'get', curlDir, parallel, guarantees));
          await assertLocalCopy(join(curlDir, 'files'), set, `${name} curl download`);
          await removeDir(curlDir);
        }
      }
      if (dav) {
        const rcloneDir = await ctx.scratch('large-down-rclone');
        await settleMachine();
        rcloneDown.runs.push(await rcloneCopy(WEBDAV_REMOTE, rcloneDir, dav));
        await assertLocalCopy(rcloneDir, set, `${name} rclone download`);
        await removeDir(rcloneDir);
      }
    };
    await alternate(ctx.runs, runAssetSync, runPeers);
  } finally {
    await dav?.stop();
  }

  const share = (as: Row, curl: Row): number => medianSeconds(curl) / medianSeconds(as);
  const rss = Math.max(medianRss(asUp) ?? Infinity, medianRss(asDown) ?? Infinity);
  const pct = (x: number): string => `${(x * 100).toFixed(0)}% of curl`;
  const mbs = (row: Row): string => (row.runs.length > 0 ? `${(throughput(row)?.value ?? 0).toFixed(0)}` : '–');
  const both = (label: string, down: Row, up: Row): string => (down.runs.length + up.runs.length > 0 ? `${label} ${mbs(down)} / ${mbs(up)} MB/s` : '');
  const only = (label: string, row: Row): string => (row.runs.length > 0 ? `${label} ${mbs(row)} MB/s` : '');
  return {
    summary: [
      {
        what: `${name.replace(/^large /, '')} down / up`,
        assetSync: `${mbs(asDown)} / ${mbs(asUp)} MB/s, peak RSS ${Math.max(medianRss(asDown) ?? 0, medianRss(asUp) ?? 0).toFixed(0)} MiB`,
        peers: [both('curl', curlDown, curlUp), only('curl + fsync', curlDurable), only('curl + SHA-256 + fsync', curlGuarded), only('SHA-256, then curl -T', curlHashedUp), both('rclone', rcloneDown, rcloneUp)].filter(Boolean).join('; '),
      },
    ],
    rows: [asDown, curlDown, curlDurable, curlGuarded, rcloneDown, asUp, curlUp, curlHashedUp, rcloneUp],
    targets: [
      ...target(name, `download ≥ ${goal.share * 100}% of curl's MB/s, checksum verified`, [asDown, curlDown], () => ({
        met: share(asDown, curlDown) >= goal.share,
        detail: `${pct(share(asDown, curlDown))}${curlDurable.runs.length > 0 ? `; ${(share(asDown, curlDurable) * 100).toFixed(0)}% of curl + fsync; ${(share(asDown, curlGuarded) * 100).toFixed(0)}% of curl + SHA-256 + fsync` : ''}`,
      })),
      ...target(name, `upload ≥ ${goal.share * 100}% of curl's MB/s, checksum verified`, [asUp, curlUp], () => ({
        met: share(asUp, curlUp) >= goal.share,
        detail: `${pct(share(asUp, curlUp))}${curlHashedUp.runs.length > 0 ? `; ${(share(asUp, curlHashedUp) * 100).toFixed(0)}% of SHA-256 then curl` : ''}`,
      })),
      ...target(name, `peak RSS < ${goal.rssMiB} MB`, [asUp, asDown], () => ({ met: rss * 1.048576 < goal.rssMiB, detail: `${(rss * 1.048576).toFixed(0)} MB` })),
    ],
  };
}

/** Keeps the service's blob folder from growing by a large file per run. */
async function deleteAll(ctx: BenchContext, ws: Tenant): Promise<void> {
  const { client } = await ctx.service();
  const listing = await client.getHierarchy(ws.workspaceId);
  const ids = listing.assets.map((a) => a.id);
  if (ids.length > 0) await client.deleteAssets(ws.workspaceId, ids, { permanent: true });
}
