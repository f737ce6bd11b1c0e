import { Readable } from 'node:stream';
import type { ServiceContext } from '../context.js';
import { newBlobKey, now } from '../http/ids.js';

/** Stores bytes the service itself receives (seed content, multipart thumbnails and avatars) as an upload. */
export async function storeBlob(
  ctx: ServiceContext,
  source: Readable | Buffer,
  meta: { fileName: string; contentType: string; userId: string; workspaceId?: string | null; accountId?: string | null },
): Promise<{ key: string; checksum: string; size: number }> {
  const staged = Buffer.isBuffer(source) ? await ctx.blobs.stage(Readable.from([source]), { expectedSize: source.length }) : await ctx.blobs.stage(source);
  const key = newBlobKey();
  await staged.keep(key);
  ctx.db
    .prepare(
      `INSERT INTO uploads (key, workspace_id, account_id, user_id, file_name, content_type, checksum, size, stored, created_at, stored_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    )
    .run(key, meta.workspaceId ?? null, meta.accountId ?? null, meta.userId, meta.fileName, meta.contentType, staged.checksum, staged.size, now(), now());
  return { key, checksum: staged.checksum, size: staged.size };
}
