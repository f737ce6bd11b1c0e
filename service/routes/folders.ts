import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parse, workspaceCaller, type ServiceContext } from '../context.js';
import { createFolder, deleteFolder, getFolder, updateFolder } from '../domain/folders.js';
import { ItemName } from '../domain/names.js';
import { ASSET_WITH_VERSION, assetEntryJson, folderJson } from '../store/serialize.js';
import type { AssetWithVersionRow, FolderRow } from '../store/rows.js';

const id = z.string().min(1).max(200);
const CreateFolder = z.object({ name: ItemName, parent_id: id.nullish() });
const UpdateFolder = z.object({ name: ItemName.optional(), parent_id: id.nullish() });
type IdParams = { Params: { folder_id: string } };

export function folderRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const actor = (request: Parameters<typeof workspaceCaller>[0]) => {
    const c = workspaceCaller(request);
    return { userId: c.userId, workspaceId: c.workspaceId };
  };

  app.post('/workspaces/folders', async (request, reply) => {
    const folder = createFolder(db, actor(request), parse(CreateFolder, request.body));
    return reply.code(201).send(folderJson(folder));
  });

  app.get<IdParams>('/workspaces/folders/:folder_id', async (request) => {
    const { workspaceId } = workspaceCaller(request);
    const folder = getFolder(db, workspaceId, request.params.folder_id);
    const folders = db.prepare('SELECT * FROM folders WHERE parent_id = ? AND is_active = 1 ORDER BY name_key').all(folder.id) as FolderRow[];
    const assets = db
      .prepare(`SELECT ${ASSET_WITH_VERSION} WHERE a.folder_id = ? AND a.is_active = 1 ORDER BY a.name_key`)
      .all(folder.id) as AssetWithVersionRow[];
    return { ...folderJson(folder), folders: folders.map(folderJson), assets: assets.map(assetEntryJson) };
  });

  app.put<IdParams>('/workspaces/folders/:folder_id', async (request) =>
    folderJson(updateFolder(db, actor(request), request.params.folder_id, parse(UpdateFolder, request.body))),
  );

  app.delete<IdParams>('/workspaces/folders/:folder_id', async (request) => {
    const recursive = (request.query as Record<string, string>).recursive === 'true';
    deleteFolder(db, actor(request), request.params.folder_id, recursive);
    return { success: true };
  });
}
