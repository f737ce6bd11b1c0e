import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, workspaceActor, workspaceCaller, type ServiceContext } from '../context.js';
import {
  createLibrary, createTag, createTask, deleteLibrary, deleteTag, deleteTask, getTask, updateLibrary, updateTask,
} from '../domain/collections.js';
import { libraryJson, tagJson, taskJson } from '../store/collab-serialize.js';
import type { LibraryRow, TagRow } from '../store/rows.js';

const id = z.string().min(1).max(200);
const name = z.string().trim().min(1).max(255);
const NewTag = z.object({ name, color: z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected a color like "#3b82f6"').nullish() });
const LibraryChanges = z.object({ name: name.optional(), description: z.string().max(10_000).nullish(), defaultAvatar: z.number().int().min(1).max(10).optional() });
const NewLibrary = LibraryChanges.extend({ name });
/** A calendar date (`2025-06-30`) or an ISO 8601 date-time. */
const dueDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);
const TaskChanges = z.object({
  title: z.string().trim().min(1).max(500).optional(),
  description: z.string().max(10_000).nullish(),
  asset_id: id.nullish(),
  assigned_user_id: id.nullish(),
  due_date: dueDate.nullish(),
  status: z.enum(['open', 'done']).optional(),
});
const NewTask = TaskChanges.extend({ title: z.string().trim().min(1).max(500) });

/** Tags, libraries and tasks of the workspace [ours]. */
export function workspaceCollectionRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const actor = workspaceActor;

  app.get('/workspaces/tags', async (request) =>
    (db.prepare('SELECT * FROM tags WHERE workspace_id = ? ORDER BY name, id').all(workspaceCaller(request).workspaceId) as TagRow[]).map(tagJson),
  );
  app.post('/workspaces/tags', async (request, reply) => reply.code(201).send(tagJson(createTag(db, actor(request), parse(NewTag, request.body)))));
  app.delete<{ Params: { tag_id: string } }>('/workspaces/tags/:tag_id', async (request) => {
    deleteTag(db, actor(request), request.params.tag_id);
    return { success: true };
  });

  app.get('/workspaces/libraries', async (request) =>
    (db.prepare('SELECT * FROM libraries WHERE workspace_id = ? ORDER BY name, id').all(workspaceCaller(request).workspaceId) as LibraryRow[]).map(libraryJson),
  );
  app.post('/workspaces/libraries', async (request, reply) =>
    reply.code(201).send(libraryJson(createLibrary(db, actor(request), parse(NewLibrary, request.body)))),
  );
  app.put<{ Params: { library_id: string } }>('/workspaces/libraries/:library_id', async (request) =>
    libraryJson(updateLibrary(db, actor(request), request.params.library_id, parse(LibraryChanges, request.body))),
  );
  app.delete<{ Params: { library_id: string } }>('/workspaces/libraries/:library_id', async (request) => {
    deleteLibrary(db, actor(request), request.params.library_id);
    return { success: true };
  });

  type TaskParams = { Params: { task_id: string } };
  app.post('/workspaces/tasks', async (request, reply) => reply.code(201).send(taskJson(createTask(db, actor(request), parse(NewTask, request.body)))));
  app.get<TaskParams>('/workspaces/tasks/:task_id', async (request) => taskJson(getTask(db, workspaceCaller(request).workspaceId, request.params.task_id)));
  app.put<TaskParams>('/workspaces/tasks/:task_id', async (request) =>
    taskJson(updateTask(db, actor(request), request.params.task_id, parse(TaskChanges, request.body))),
  );
  app.delete<TaskParams>('/workspaces/tasks/:task_id', async (request) => {
    deleteTask(db, actor(request), request.params.task_id);
    return { success: true };
  });
}
