/**
 * Contract-test helper for the part of the protocol every asset test starts with: ask for a
 * signed URL, PUT the bytes to the blob origin (no bearer token), then commit the key.
 */
import { createHash } from 'node:crypto';
import type { Asset, AssetVersion } from './served.js';
import { errorCode, type Api, type ApiResponse } from './service.js';

export const sha256 = (bytes: Uint8Array | string): string => createHash('sha256').update(bytes).digest('hex');

export interface Uploaded {
  key: string;
  checksum: string;
  size: number;
  signedUrl: string;
}

/** POST /workspaces/upload for these bytes; nothing is PUT yet. */
export async function requestUpload(api: Api, bytes: Uint8Array | string, fileName = 'file.bin', checksum = sha256(bytes)): Promise<Uploaded> {
  const query = new URLSearchParams({ file_name: fileName, content_type: 'application/octet-stream', checksum, size: String(Buffer.byteLength(bytes)) });
  const res = await api<{ key: string; signed_url: string }>('POST', `/workspaces/upload?${query.toString()}`);
  if (res.status !== 200) throw new Error(`POST /workspaces/upload answered ${res.status}: ${res.text}`);
  return { key: res.json.key, checksum, size: Buffer.byteLength(bytes), signedUrl: res.json.signed_url };
}

/** PUT to a signed URL exactly as a client does: no Authorization header. */
export function putSigned(signedUrl: string, bytes: Uint8Array | string): Promise<Response> {
  return fetch(signedUrl, { method: 'PUT', body: bytes, headers: { 'content-type': 'application/octet-stream' } });
}

/** Ask for a signed URL and PUT the bytes; the key is ready to commit. */
export async function upload(api: Api, bytes: Uint8Array | string, fileName = 'file.bin'): Promise<Uploaded> {
  const ticket = await requestUpload(api, bytes, fileName);
  const res = await putSigned(ticket.signedUrl, bytes);
  if (res.status !== 200) throw new Error(`PUT to the signed URL answered ${res.status}: ${await res.text()}`);
  return ticket;
}

/** Upload and create an asset; returns the raw answer so callers can check its status. */
export async function postAsset(
  api: Api,
  input: { fileName: string; folderId?: string | null; bytes?: Uint8Array | string },
): Promise<ApiResponse<Asset>> {
  const bytes = input.bytes ?? `content of ${input.fileName} ${Math.random()}`;
  const up = await upload(api, bytes, input.fileName);
  return api<Asset>('POST', '/workspaces/assets', {
    body: { key: up.key, file_name: input.fileName, folder_id: input.folderId ?? null, checksum: up.checksum, size: up.size },
  });
}

/** Upload and create an asset that must succeed. */
export async function createAsset(api: Api, input: { fileName: string; folderId?: string | null; bytes?: Uint8Array | string }): Promise<Asset> {
  const res = await postAsset(api, input);
  if (res.status !== 201) throw new Error(`POST /workspaces/assets answered ${res.status}: ${res.text}`);
  return res.json;
}

/** Upload and commit a new version on top of `parentId` (undefined: unconditional). */
export async function postVersion(
  api: Api,
  assetId: string,
  input: { parentId?: string | null; bytes?: Uint8Array | string },
): Promise<ApiResponse<AssetVersion>> {
  const up = await upload(api, input.bytes ?? `version bytes ${Math.random()}`);
  return api<AssetVersion>('POST', `/workspaces/assets/${assetId}/versions`, {
    body: { key: up.key, checksum: up.checksum, size: up.size, ...(input.parentId !== undefined ? { commit_parent_id: input.parentId } : {}) },
  });
}

/** Status and error code (either error shape) together, for one-line assertions. */
export const statusAndCode = (res: ApiResponse): { status: number; code: string | undefined } => ({ status: res.status, code: errorCode(res) });
