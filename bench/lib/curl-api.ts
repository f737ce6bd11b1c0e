/**
 * curl going through the service's API, as a script of a user who has no sync client would: the
 * same requests per file that Asset Sync makes, on 4 keep-alive connections, and nothing else
 * (no checks, no index, no fsync). Beside the bare floor (signed URLs asked before the clock
 * starts, one request a file), this shows what the API's own requests cost:
 * - download: `GET …/versions/{id}/download` answered with a 302, followed (`-L`) to the blob;
 * - upload: three passes, each on 4 connections: the upload tickets, the PUTs to the signed URLs,
 *   then the asset records. The folders are made before the clock starts.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServiceClient } from '../../main/service-client/index.js';
import { assetsByPath } from './api.js';
import type { DataSet } from './dataset.js';
import { load1, type Run } from './measure.js';
import { curlBatch, curlConfigs, curlHeader, curlQuote } from './peers.js';
import type { ServiceProcess, Tenant } from './service-process.js';

function apiHeaders(token: string, ws: Tenant): string[] {
  return [`Authorization: Bearer ${token}`, `x-account-id: ${ws.accountId}`, `x-workspace-id: ${ws.workspaceId}`];
}

/** The version download URLs of every file of the set, as the API names them (no request per file). */
export async function apiDownloadJobs(service: ServiceProcess, client: ServiceClient, ws: Tenant, set: DataSet, into: string): Promise<Array<{ url: string; path: string }>> {
  const byPath = assetsByPath(await client.getHierarchy(ws.workspaceId));
  return set.files.map((file) => {
    const asset = byPath.get(file.rel);
    if (!asset) throw new Error(`the service has no asset at ${file.rel}`);
    return { url: `${service.baseUrl}/workspaces/assets/${asset.id}/versions/${asset.versionId}/download`, path: join(into, file.rel) };
  });
}

/** curl -L through the API's download redirect: two requests a file, as Asset Sync makes. */
export function curlApiDownload(jobs: ReadonlyArray<{ url: string; path: string }>, token: string, ws: Tenant, workDir: string, parallel = 4): Promise<Run> {
  // curl does not pass the Authorization header on to the blob origin (another port), nor does
  // the signed URL need it.
  return curlBatch(jobs, 'get', workDir, parallel, { headers: apiHeaders(token, ws), follow: true });
}

/**
 * The set uploaded into the (empty) workspace through the API with curl: tickets, PUTs, asset
 * records, each pass on `parallel` keep-alive connections. Folder ids come from `folderIds`
 * (made before the clock starts). The clock covers the three passes and reading the tickets.
 */
export async function curlApiUpload(
  service: ServiceProcess,
  token: string,
  ws: Tenant,
  set: DataSet,
  folderIds: ReadonlyMap<string, string | null>,
  workDir: string,
  parallel = 4,
): Promise<Run> {
  const headers = apiHeaders(token, ws).map(curlHeader);
  const nameOf = (rel: string): string => rel.slice(rel.lastIndexOf('/') + 1);
  const folderOf = (rel: string): string => rel.slice(0, Math.max(0, rel.lastIndexOf('/')));
  const ticketFile = (i: number): string => join(workDir, 'tickets', `${i}.json`);
  const start = process.hrtime.bigint();

  const ticketBlocks = set.files.map((f, i) => {
    const query = new URLSearchParams({ file_name: nameOf(f.rel), content_type: 'application/octet-stream', checksum: f.sha256, size: String(f.size) });
    return [`url = ${curlQuote(`${service.baseUrl}/workspaces/upload?${query.toString()}`)}`, `output = ${curlQuote(ticketFile(i))}`];
  });
  const passes = [await curlConfigs(ticketBlocks, ['request = "POST"', ...headers], workDir, 'tickets', parallel)];

  const uploads = await Promise.all(set.files.map(async (file, i) => ({ file, ticket: JSON.parse(await readFile(ticketFile(i), 'utf8')) as { key: string; signed_url: string } })));
  const putBlocks = uploads.map(({ file, ticket }) => [`url = ${curlQuote(ticket.signed_url)}`, `upload-file = ${curlQuote(join(set.dir, file.rel))}`]);
  passes.push(await curlConfigs(putBlocks, ['Expect:', 'Content-Type: application/octet-stream'].map(curlHeader), workDir, 'put', parallel));

  const assetBlocks = uploads.map(({ file, ticket }) => {
    const body = { key: ticket.key, file_name: nameOf(file.rel), folder_id: folderIds.get(folderOf(file.rel)) ?? null, checksum: file.sha256, size: file.size };
    return [`url = ${curlQuote(`${service.baseUrl}/workspaces/assets`)}`, `data = ${curlQuote(JSON.stringify(body))}`, 'output = "/dev/null"'];
  });
  passes.push(await curlConfigs(assetBlocks, [curlHeader('Content-Type: application/json'), ...headers], workDir, 'assets', parallel, { separate: true }));

  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { seconds, rssMiB: Math.max(...passes.flat().map((r) => r.rssMiB ?? 0)), load: load1() };
}
