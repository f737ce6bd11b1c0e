/** Comments on an asset [ours]: anyone in the workspace comments; only the author edits or deletes. */
import type { Db } from '../db/db.js';
import type { WorkspaceCaller } from '../context.js';
import { forbidden, notFound } from '../http/errors.js';
import { newId, now } from '../http/ids.js';
import type { CommentRow } from '../store/collab-serialize.js';
import { addAttachments, checkMentions, type AttachmentInput } from './attachments.js';
import { requireActiveAsset } from './collections.js';
import { getAsset } from './assets.js';

type Actor = Pick<WorkspaceCaller, 'userId' | 'workspaceId'>;

export function getComment(db: Db, workspaceId: string, assetId: string, commentId: string): CommentRow {
  getAsset(db, workspaceId, assetId);
  const row = db.prepare('SELECT * FROM comments WHERE id = ? AND asset_id = ?').get(commentId, assetId) as CommentRow | undefined;
  if (!row) throw notFound('comment');
  return row;
}

export function createComment(
  db: Db, actor: Actor, assetId: string,
  input: { content: string; mentions?: string[] | undefined; attachments?: AttachmentInput[] | undefined },
): CommentRow {
  return db.transaction(() => {
    requireActiveAsset(db, actor.workspaceId, assetId);
    const mentions = checkMentions(db, actor.workspaceId, input.mentions ?? []);
    const id = newId();
    const at = now();
    db.prepare('INSERT INTO comments (id, asset_id, workspace_id, user_id, content, mentions, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      id, assetId, actor.workspaceId, actor.userId, input.content, JSON.stringify(mentions), at, at);
    addAttachments(db, actor, assetId, { commentId: id }, input.attachments ?? []);
    return getComment(db, actor.workspaceId, assetId, id);
  })();
}

function ownComment(db: Db, actor: Actor, assetId: string, commentId: string): CommentRow {
  const row = getComment(db, actor.workspaceId, assetId, commentId);
  if (row.user_id !== actor.userId) throw forbidden('Only the author may change or delete a comment.');
  return row;
}

export function updateComment(db: Db, actor: Actor, assetId: string, commentId: string, input: { content?: string | undefined; mentions?: string[] | undefined }): CommentRow {
  return db.transaction(() => {
    const before = ownComment(db, actor, assetId, commentId);
    const mentions = input.mentions === undefined ? before.mentions : JSON.stringify(checkMentions(db, actor.workspaceId, input.mentions));
    db.prepare('UPDATE comments SET content = ?, mentions = ?, updated_at = ? WHERE id = ?').run(input.content ?? before.content, mentions, now(), commentId);
    return getComment(db, actor.workspaceId, assetId, commentId);
  })();
}

export function deleteComment(db: Db, actor: Actor, assetId: string, commentId: string): void {
  db.transaction(() => {
    ownComment(db, actor, assetId, commentId);
    db.prepare('DELETE FROM attachments WHERE comment_id = ?').run(commentId);
    db.prepare('DELETE FROM comments WHERE id = ?').run(commentId);
  })();
}
