import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountCaller, parse, workspaceCaller, type ServiceContext } from '../context.js';
import { WorkspaceRole } from '../domain/roles.js';
import {
  addWorkspace, deleteWorkspace, getWorkspaceRow, putWorkspaceMember, removeWorkspaceMember, updateWorkspace,
  updateWorkspaceSettings, workspaceSettings,
} from '../domain/workspaces.js';
import { discardFile, readForm } from '../http/multipart.js';
import { callerWorkspaces, workspaceMemberJson, type MemberRow } from '../store/collab-serialize.js';
import { workspaceJson } from '../store/serialize.js';

const name = z.string().trim().min(1).max(255);
const avatar = z.number().int().min(1).max(10);
const NewWorkspace = z.object({ name, defaultAvatar: avatar.optional() });
const WorkspaceChanges = z.object({ name: name.optional(), defaultAvatar: avatar.optional() });
const MemberInput = z.object({ roles: z.array(WorkspaceRole).min(1).max(10).default(['editor']) });
const SettingsInput = z.record(z.string().min(1).max(100), z.union([z.string().max(10_000), z.number(), z.boolean(), z.null()]))
  .refine((s) => Object.keys(s).length <= 100, 'at most 100 settings at once');
type UserParams = { Params: { user_id: string } };

/** The workspace record, its members and settings (reference part 4, "Workspaces"). */
export function workspaceRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;

  app.post('/workspaces', async (request, reply) => {
    const c = accountCaller(request);
    const row = addWorkspace(db, c, parse(NewWorkspace, request.body));
    return reply.code(201).send(workspaceJson(db, row, c.userId));
  });

  // The reference answers the current workspace; its getting-started example lists them all
  // (`--workspaces-shape list`), which needs no x-workspace-id.
  app.get('/workspaces', async (request) => {
    const { userId, accountId } = accountCaller(request);
    if (ctx.options.workspacesShape === 'list') {
      return { workspaces: callerWorkspaces(db, accountId, userId).map((w) => workspaceJson(db, w, userId)) };
    }
    const auth = await ctx.tokens.authenticate(request.headers, 'workspace', request.ip);
    return workspaceJson(db, getWorkspaceRow(db, auth?.workspaceId ?? ''), userId);
  });

  app.put('/workspaces', async (request) => {
    const c = workspaceCaller(request);
    const { body, file } = await readForm(ctx, request, WorkspaceChanges, c);
    try {
      const { workspace, replacedThumbnail } = updateWorkspace(db, c, body, file?.key);
      if (replacedThumbnail) await discardFile(ctx, replacedThumbnail);
      return workspaceJson(db, workspace, c.userId);
    } catch (error) {
      if (file) await discardFile(ctx, file.key);
      throw error;
    }
  });

  app.delete('/workspaces', async (request) => {
    deleteWorkspace(db, workspaceCaller(request));
    return { success: true };
  });

  const member = (workspaceId: string, userId: string) => {
    const row = db.prepare('SELECT user_id, roles FROM workspace_members WHERE workspace_id = ? AND user_id = ?').get(workspaceId, userId) as MemberRow;
    return workspaceMemberJson(db, workspaceId, row);
  };

  app.get('/workspaces/members', async (request) => {
    const { workspaceId } = workspaceCaller(request);
    const rows = db
      .prepare('SELECT m.user_id, m.roles FROM workspace_members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? ORDER BY u.last_name, u.first_name, u.id')
      .all(workspaceId) as MemberRow[];
    return rows.map((row) => workspaceMemberJson(db, workspaceId, row));
  });

  app.post<UserParams>('/workspaces/members/:user_id', async (request, reply) => {
    const c = workspaceCaller(request);
    const { created } = putWorkspaceMember(db, c, request.params.user_id, parse(MemberInput, request.body ?? {}).roles);
    return reply.code(created ? 201 : 200).send(member(c.workspaceId, request.params.user_id));
  });

  app.delete<UserParams>('/workspaces/members/:user_id', async (request) => {
    removeWorkspaceMember(db, workspaceCaller(request), request.params.user_id);
    return { success: true };
  });

  app.get('/workspaces/settings', async (request) => workspaceSettings(db, workspaceCaller(request).workspaceId));

  app.put('/workspaces/settings', async (request) => updateWorkspaceSettings(db, workspaceCaller(request), parse(SettingsInput, request.body)));
}
