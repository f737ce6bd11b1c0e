/**
 * An asset's comment thread as the app shows it: each comment with its author, the colleagues it
 * mentions and its attachments by name, all named from the workspace's members. A comment added
 * from the app may mention members (by user id: the service refuses anyone else) and carry small
 * files: each is uploaded first (`POST /workspaces/upload`, then the signed PUT), and the comment
 * names its key.
 */
import { createHash } from 'node:crypto';
import { personName, type Comment } from '../../shared/api/index.js';
import type { WorkspaceMember } from '../service-client/index.js';
import { ATTACHMENT_MAX_BYTES, type CommentView, type MemberView, type ParsedRequestOf } from '../../shared/ipc.js';
import type { Logger } from '../logging.js';
import { sanitizeName } from '../local/paths.js';
import type { ServiceClient } from '../service-client/index.js';
import { AppError } from './bridge-errors.js';

export async function listMembers(client: ServiceClient, workspaceId: string, selfUserId: string | null): Promise<MemberView[]> {
  const members = await client.listWorkspaceMembers(workspaceId);
  return members
    .map((m) => ({ userId: m.user_id, name: personName(m.user, `user ${m.user_id}`), roles: m.roles ?? [], you: m.user_id === selfUserId }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export async function listComments(client: ServiceClient, workspaceId: string, assetId: string, selfUserId: string | null, logger?: Logger): Promise<CommentView[]> {
  const [comments, members] = await Promise.all([client.listComments(workspaceId, assetId), membersOrNone(client, workspaceId, logger)]);
  return comments.map((c) => commentView(c, members, selfUserId));
}

export async function addComment(client: ServiceClient, request: ParsedRequestOf<'addComment'>, selfUserId: string | null, logger?: Logger): Promise<CommentView> {
  const files = request.attachments.map((a) => ({ name: sanitizeName(a.name), bytes: Buffer.from(a.dataBase64, 'base64') }));
  const total = files.reduce((n, f) => n + f.bytes.length, 0);
  if (total > ATTACHMENT_MAX_BYTES) throw new AppError('too_large', `Attachments can hold ${ATTACHMENT_MAX_BYTES / 1024} KB together here; these hold ${Math.ceil(total / 1024)} KB.`);
  const attachments = [];
  for (const file of files) {
    const checksum = createHash('sha256').update(file.bytes).digest('hex');
    const ticket = await client.requestUpload(request.workspaceId, { fileName: file.name, contentType: 'application/octet-stream', checksum, size: file.bytes.length });
    await client.putSignedUpload(ticket.signed_url, file.bytes, { size: file.bytes.length });
    attachments.push({ key: ticket.key, name: file.name });
  }
  const [comment, members] = await Promise.all([
    client.createComment(request.workspaceId, request.assetId, {
      content: request.content,
      ...(request.mentions.length > 0 ? { mentions: request.mentions } : {}),
      ...(attachments.length > 0 ? { attachments } : {}),
    }),
    membersOrNone(client, request.workspaceId, logger),
  ]);
  return commentView(comment, members, selfUserId);
}

/** The members, to name people by; none when they cannot be listed (ids are shown then). */
async function membersOrNone(client: ServiceClient, workspaceId: string, logger?: Logger): Promise<WorkspaceMember[]> {
  return client.listWorkspaceMembers(workspaceId).catch((error: unknown) => {
    logger?.warn({ err: error }, 'the workspace members could not be listed; comments name user ids');
    return [];
  });
}

function commentView(c: Comment, members: readonly WorkspaceMember[], selfUserId: string | null): CommentView {
  const nameOf = (userId: string | undefined): string =>
    userId === undefined ? 'someone' : personName(members.find((m) => m.user_id === userId)?.user, `user ${userId}`);
  return {
    id: c.id,
    authorId: c.user_id ?? '',
    author: c.user ? personName(c.user, nameOf(c.user_id)) : nameOf(c.user_id),
    content: c.content,
    createdAt: c.created_at ?? null,
    mentions: (c.mentions ?? []).map((userId) => ({ userId, name: nameOf(userId) })),
    attachments: (c.attachments ?? []).flatMap(attachmentName),
    yours: c.user_id !== undefined && c.user_id === selfUserId,
  };
}

/** An attachment as far as it can be read: its name, and its id when it has one. */
function attachmentName(raw: unknown): Array<{ id: string | null; name: string }> {
  if (typeof raw !== 'object' || raw === null) return [];
  const { id, name } = raw as { id?: unknown; name?: unknown };
  return typeof name === 'string' ? [{ id: typeof id === 'string' ? id : null, name }] : [];
}
