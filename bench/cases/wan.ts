/**
 * Case 7, small files over a far-away service: the service answers every request (API and blob)
 * 50 ms late (`--faults latency=50`), as a service across a continent would. On loopback the
 * small-file cases measure CPU; here they measure how well round trips overlap, which decides
 * a real user's first sync. Asset Sync (`asset-sync sync --once` each way) vs curl on 4 keep-alive
 * connections with the signed URLs asked up front (one round trip a file, the floor of a
 * client that may only keep 4 requests in flight). No target is set: the ratio is shown. Each
 * round alternates which goes first.
 */
import { join } from 'node:path';
import { benchClient, createWorkspace, signedDownloads, signedUploads, uploadThroughApi } from '../lib/api.js';
import { syncOnce } from '../lib/asset-sync.js';
import { removeDir, type BenchContext } from '../lib/context.js';
import { ensureTree } from '../lib/dataset.js';
import { alternate, medianSeconds, type CaseResult, type Row } from '../lib/measure.js';
import { cell } from '../lib/report.js';
import { curlBatch } from '../lib/peers.js';
import { settleMachine } from '../lib/settle.js';
import { startServiceProcess } from '../lib/service-process.js';
import { assertLocalCopy, assertRemoteCopy } from '../lib/verify.js';

export async function wanCase(ctx: BenchContext): Promise<CaseResult> {
  const { latencyMs, ...spec } = ctx.sizes.wan;
  const name = `${spec.files} files, ${latencyMs} ms away`;
  const set = await ensureTree(join(ctx.setsDir, `wan-${spec.files}`), spec);
  const service = await startServiceProcess({ dataDir: await ctx.scratch('wan-service'), demo: true, profileDir: ctx.profileDir, faults: `latency=${latencyMs}` });
  const tenant = service.tenant;
  if (!tenant) throw new Error('the service printed no demo tenant');
  const client = benchClient(service, tenant);
  const work = { files: set.files.length };
  const row = (tool: string, group: 'down' | 'up'): Row => ({ case: name, tool, runs: [], work, group });
  const asDown = row('Asset Sync download', 'down');
  const curlDown = row('curl floor (4 keep-alive)', 'down');
  const asUp = row('Asset Sync upload', 'up');
  const curlUp = row('curl PUT floor (4 keep-alive)', 'up');
  try {
    ctx.log(`wan: uploading ${set.files.length} files through the API first`);
    const filled = await createWorkspace(service, tenant, 'wan-download');
    await uploadThroughApi(client, filled.workspaceId, set, 32);
    const urls = ctx.uses('curl') ? await signedDownloads(client, filled.workspaceId, set) : undefined;
    const runAssetSync = async (i: number): Promise<void> => {
      ctx.log(`wan run ${i + 1}/${ctx.runs}: Asset Sync download`);
      const scratch = await ctx.scratch('wan-down-as');
      const root = join(scratch, 'root');
      await settleMachine();
      asDown.runs.push((await syncOnce({ service, tenant: filled, root, folder: 'ws', home: join(scratch, 'state') }, ctx.child)).run);
      await assertLocalCopy(join(root, 'ws'), set, 'Asset Sync download');
      await removeDir(scratch);

      ctx.log(`wan run ${i + 1}/${ctx.runs}: Asset Sync upload`);
      const ws = await createWorkspace(service, tenant, `wan-up-${i}`);
      const home = await ctx.scratch('wan-up-as');
      await settleMachine();
      asUp.runs.push((await syncOnce({ service, tenant: ws, root: set.root, folder: set.folder, home }, ctx.child)).run);
      await assertRemoteCopy(client, ws.workspaceId, set, 'Asset Sync upload');
    };
    const runCurl = async (i: number): Promise<void> => {
      if (!urls) return;
      ctx.log(`wan run ${i + 1}/${ctx.runs}: curl`);
      const curlDir = await ctx.scratch('wan-down-curl');
      const files = join(curlDir, 'files');
      await settleMachine();
      curlDown.runs.push(await curlBatch(urls.map((u) => ({ url: u.url, path: join(files, u.file.rel) })), 'get', curlDir, 4));
      await assertLocalCopy(files, set, 'curl download');
      await removeDir(curlDir);
      const floorWs = await createWorkspace(service, tenant, `wan-up-curl-${i}`);
      const tickets = await signedUploads(client, floorWs.workspaceId, set);
      const putDir = await ctx.scratch('wan-up-curl');
      await settleMachine();
      curlUp.runs.push(await curlBatch(tickets.map((t) => ({ url: t.url, path: join(set.dir, t.file.rel) })), 'put', putDir, 4));
    };
    await alternate(ctx.runs, runAssetSync, runCurl);
  } finally {
    await client.close();
    await service.stop();
  }
  const ratio = (as: Row, floor: Row): string => (floor.runs.length > 0 ? `${(medianSeconds(as) / medianSeconds(floor)).toFixed(2)}x the curl floor's time` : 'no curl run');
  ctx.log(`wan: download ${ratio(asDown, curlDown)}, upload ${ratio(asUp, curlUp)}`);
  return {
    rows: [asDown, curlDown, asUp, curlUp],
    targets: [],
    summary: [{ what: `${name}: down / up`, assetSync: `${cell(asDown, false)} / ${cell(asUp, false)}`, peers: curlDown.runs.length > 0 ? `curl on 4 connections ${cell(curlDown, false)} / ${cell(curlUp, false)}` : '' }],
  };
}
