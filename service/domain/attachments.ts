/** Files attached to comments and reviews: uploads (POST /workspaces/upload) of the same workspace. */
import type { Db } from '../db/db.js';
import { ApiError, badRequest } from '../http/errors.js';
import { newId } from '../http/ids.js';
import { isWorkspaceMember } from './roles.js';

export interface AttachmentInput {
  key: string;
  name: string;
  description?: string | null | undefined;
}

export function addAttachments(
  db: Db,
  actor: { userId: string; workspaceId: string },
  assetId: string,
  owner: { commentId?: string; reviewId?: string },
  attachments: AttachmentInput[],
): void {
  const upload = db.prepare('SELECT workspace_id, stored FROM uploads WHERE key = ?');
  const insert = db.prepare(
    'INSERT INTO attachments (id, asset_id, created_by_user_id, file_id, review_id, comment_id, name, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const a of attachments) {
    const row = upload.get(a.key) as { workspace_id: string | null; stored: number } | undefined;
    if (!row || row.workspace_id !== actor.workspaceId) throw badRequest('The attachment key is unknown in this workspace.', { key: a.key });
    if (!row.stored) throw new ApiError(400, 'upload_missing', 'Nothing was uploaded to the signed URL of this attachment key yet.', { key: a.key });
    insert.run(newId(), assetId, actor.userId, a.key, owner.reviewId ?? null, owner.commentId ?? null, a.name, a.description ?? null);
  }
}

/** Mentions name workspace members; an unknown user is 404, like any other unknown id. */
export function checkMentions(db: Db, workspaceId: string, mentions: string[]): string[] {
  for (const userId of mentions) {
    if (!isWorkspaceMember(db, workspaceId, userId)) throw new ApiError(404, 'not_found', `The mentioned user ${userId} is not a member of this workspace.`);
  }
  return [...new Set(mentions)];
}
