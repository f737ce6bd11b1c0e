/**
 * The benchmark acting on the service as another client would: fresh workspaces, a tree
 * uploaded through the API (requestUpload + PUT + createAsset), and signed URLs fetched up
 * front for the curl floors. It uses the engine's typed client, not a second one.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { request } from 'undici';
import { runPool } from '../../main/local/pool.js';
import { ServiceClient } from '../../main/service-client/index.js';
import type { Listing } from '../../main/service-client/index.js';
import type { DataSet, ManifestFile } from './dataset.js';
import type { ServiceProcess, Tenant } from './service-process.js';

export function benchClient(service: ServiceProcess, tenant: Tenant): ServiceClient {
  return new ServiceClient({ baseUrl: service.baseUrl, accountId: tenant.accountId, credentials: { key: tenant.key, secret: tenant.secret }, connections: 16, userAgent: 'asset-sync-bench' });
}

/** A bearer token for the tenant (POST /auth/token answers a bare string or `{ token }`). */
export async function apiToken(service: ServiceProcess, tenant: Tenant): Promise<string> {
  const res = await request(`${service.baseUrl}/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-account-id': tenant.accountId },
    body: JSON.stringify({ key: tenant.key, secret: tenant.secret }),
  });
  const answer = (await res.body.json()) as string | { token: string };
  return typeof answer === 'string' ? answer : answer.token;
}

/** POST /workspaces (the typed client has no call for it: the engine never creates workspaces). */
export async function createWorkspace(service: ServiceProcess, tenant: Tenant, name: string): Promise<Tenant> {
  const headers = { 'content-type': 'application/json', 'x-account-id': tenant.accountId };
  const token = await apiToken(service, tenant);
  const res = await request(`${service.baseUrl}/workspaces`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify({ name }) });
  const created = (await res.body.json()) as { id?: string };
  if (res.statusCode !== 201 || !created.id) throw new Error(`POST /workspaces answered ${res.statusCode}`);
  return { ...tenant, workspaceId: created.id };
}

/** The set's folders made through the typed client (untimed), shallow first: their ids by path. */
export async function makeFolders(client: ServiceClient, workspaceId: string, set: DataSet): Promise<Map<string, string | null>> {
  const ids = new Map<string, string | null>([['', null]]);
  for (const path of set.folders) {
    const slash = path.lastIndexOf('/');
    const parent = ids.get(slash < 0 ? '' : path.slice(0, slash)) ?? null;
    ids.set(path, (await client.createFolder(workspaceId, { name: path.slice(slash + 1), parent_id: parent })).id);
  }
  return ids;
}

/** Uploads a data set into a workspace through the API, `concurrency` files at a time. */
export async function uploadThroughApi(client: ServiceClient, workspaceId: string, set: DataSet, concurrency = 8): Promise<void> {
  const folderIds = await makeFolders(client, workspaceId, set);
  await runPool(set.files, concurrency, async (f) => {
    const slash = f.rel.lastIndexOf('/');
    const bytes = await readFile(join(set.dir, f.rel));
    const ticket = await client.requestUpload(workspaceId, { fileName: f.rel.slice(slash + 1), contentType: 'application/octet-stream', checksum: f.sha256, size: f.size });
    await client.putSignedUpload(ticket.signed_url, bytes, { size: f.size });
    await client.createAsset(workspaceId, { key: ticket.key, file_name: f.rel.slice(slash + 1), folder_id: folderIds.get(f.rel.slice(0, Math.max(0, slash))) ?? null, checksum: f.sha256, size: f.size });
  });
}

/** Active assets by path of service names ("d000/s001/f000042.bin"). */
export function assetsByPath(listing: Listing): Map<string, { id: string; checksum: string; versionId: string }> {
  const folders = new Map(listing.folders.filter((f) => f.isActive).map((f) => [f.id, f]));
  const pathOf = (id: string | null | undefined): string => {
    const folder = id ? folders.get(id) : undefined;
    if (!folder) return '';
    const parent = pathOf(folder.parent_id);
    return parent ? `${parent}/${folder.name}` : folder.name;
  };
  const out = new Map<string, { id: string; checksum: string; versionId: string }>();
  for (const a of listing.assets) {
    if (!a.isActive) continue;
    const dir = pathOf(a.folder_id);
    out.set(dir ? `${dir}/${a.file_name}` : a.file_name, { id: a.id, checksum: a.checksum, versionId: a.current_version_id });
  }
  return out;
}

/** Signed GET URLs of every file of the set (`?redirect=false`), asked before any timing. */
export async function signedDownloads(client: ServiceClient, workspaceId: string, set: DataSet): Promise<Array<{ file: ManifestFile; url: string }>> {
  const byPath = assetsByPath(await client.getHierarchy(workspaceId));
  const out: Array<{ file: ManifestFile; url: string }> = [];
  await runPool(set.files, 16, async (file) => {
    const asset = byPath.get(file.rel);
    if (!asset) throw new Error(`the service has no asset at ${file.rel}`);
    out.push({ file, url: (await client.getDownloadUrl(workspaceId, asset.id)).url });
  });
  return out;
}

/** Signed PUT URLs for every file of the set, asked before any timing. */
export async function signedUploads(client: ServiceClient, workspaceId: string, set: DataSet): Promise<Array<{ file: ManifestFile; url: string }>> {
  const out: Array<{ file: ManifestFile; url: string }> = [];
  await runPool(set.files, 16, async (file) => {
    const ticket = await client.requestUpload(workspaceId, { fileName: file.rel.slice(file.rel.lastIndexOf('/') + 1), contentType: 'application/octet-stream', checksum: file.sha256, size: file.size });
    out.push({ file, url: ticket.signed_url });
  });
  return out;
}
