import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Checksum } from '../../shared/api/index.js';
import { parse, workspaceCaller, type ServiceContext } from '../context.js';
import { createVersion, deleteVersion, getAsset, getAssetVersion, restoreVersion, updateVersion } from '../domain/assets.js';
import { ItemName } from '../domain/names.js';
import { loadUser, versionJson } from '../store/serialize.js';
import type { VersionRow } from '../store/rows.js';
import { redirectToBlob } from './downloads.js';

const CreateVersion = z.object({
  key: z.string().min(1).max(200),
  checksum: Checksum,
  size: z.number().int().nonnegative().optional(),
  commit_parent_id: z.string().min(1).max(200).nullish(),
  name: ItemName.optional(),
  description: z.string().max(10_000).optional(),
});
const UpdateVersion = z.object({ name: ItemName.optional(), description: z.string().max(10_000).optional() });
type AssetParams = { Params: { asset_id: string } };
type VersionParams = { Params: { asset_id: string; version_id: string } };

export function versionRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const actorOf = (request: Parameters<typeof workspaceCaller>[0]) => {
    const c = workspaceCaller(request);
    return { userId: c.userId, workspaceId: c.workspaceId };
  };
  const json = (row: VersionRow) => versionJson(row, loadUser(db, row.created_by_user_id));

  app.get<AssetParams>('/workspaces/assets/:asset_id/versions', async (request) => {
    const asset = getAsset(db, workspaceCaller(request).workspaceId, request.params.asset_id);
    const rows = db.prepare('SELECT * FROM asset_versions WHERE asset_id = ? ORDER BY version_number DESC').all(asset.id) as VersionRow[];
    return rows.map(json);
  });

  app.post<AssetParams>('/workspaces/assets/:asset_id/versions', async (request, reply) => {
    const { version, created } = createVersion(db, actorOf(request), request.params.asset_id, parse(CreateVersion, request.body));
    return reply.code(created ? 201 : 200).send(json(version));
  });

  app.get<VersionParams>('/workspaces/assets/:asset_id/versions/:version_id', async (request) =>
    json(getAssetVersion(db, workspaceCaller(request).workspaceId, request.params.asset_id, request.params.version_id)),
  );

  app.patch<VersionParams>('/workspaces/assets/:asset_id/versions/:version_id', async (request) =>
    json(updateVersion(db, actorOf(request), request.params.asset_id, request.params.version_id, parse(UpdateVersion, request.body))),
  );

  app.delete<VersionParams>('/workspaces/assets/:asset_id/versions/:version_id', async (request) => {
    deleteVersion(db, actorOf(request), request.params.asset_id, request.params.version_id);
    return { success: true };
  });

  app.patch<VersionParams>('/workspaces/assets/:asset_id/versions/:version_id/restore', async (request) =>
    json(restoreVersion(db, actorOf(request), request.params.asset_id, request.params.version_id)),
  );

  app.get<VersionParams>('/workspaces/assets/:asset_id/versions/:version_id/download', async (request, reply) => {
    const version = getAssetVersion(db, workspaceCaller(request).workspaceId, request.params.asset_id, request.params.version_id);
    return redirectToBlob(ctx, request, reply, version);
  });
}
