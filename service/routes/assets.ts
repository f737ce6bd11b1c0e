import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Checksum } from '../../shared/api/index.js';
import { parse, workspaceCaller, type ServiceContext } from '../context.js';
import { createAsset, deleteAssets, getAsset, getVersion, restoreAsset, updateAsset } from '../domain/assets.js';
import { ItemName } from '../domain/names.js';
import { badRequest, notFound } from '../http/errors.js';
import { deletesPermanently } from '../http/permissions.js';
import { assetJson, loadUser } from '../store/serialize.js';
import { redirectToBlob } from './downloads.js';

const id = z.string().min(1).max(200);
const CreateAsset = z.object({
  key: z.string().min(1).max(200),
  file_name: ItemName,
  folder_id: id.nullish(),
  checksum: Checksum,
  size: z.number().int().nonnegative().optional(),
  name: ItemName.optional(),
  asset_type_id: z.string().optional(),
  status_id: z.string().optional(),
  description: z.string().max(10_000).optional(),
  library_ids: z.array(id).max(100).optional(),
});
const UpdateAsset = z.object({
  name: ItemName.optional(),
  file_name: ItemName.optional(),
  folder_id: id.nullish(),
  status_id: id.nullish(),
  asset_type_id: z.string().optional(),
  library_ids: z.array(id).max(100).optional(),
  locked: z.boolean().optional(),
});
const DeleteAssets = z.object({
  asset_ids: z.array(id).min(1).max(1000),
  permanent: z.boolean().optional(),
  if_current_version_ids: z.record(z.string(), id).optional(),
});
const RestoreAsset = z.object({ file_name: ItemName.optional() });
type AssetParams = { Params: { asset_id: string } };

export function assetRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;
  const actorOf = (request: Parameters<typeof workspaceCaller>[0]) => {
    const c = workspaceCaller(request);
    return { userId: c.userId, workspaceId: c.workspaceId };
  };

  app.post('/workspaces/assets', async (request, reply) => {
    const actor = actorOf(request);
    const body = request.body as Record<string, unknown> | undefined;
    // One endpoint, two jobs (reference): with an `id` it updates, otherwise it creates.
    if (body && typeof body === 'object' && 'id' in body) {
      const assetId = parse(id, body.id, 'asset id');
      const { id: _ignored, ...rest } = body;
      return assetJson(db, updateAsset(db, actor, assetId, parse(UpdateAsset, rest)));
    }
    const input = parse(CreateAsset, body);
    return reply.code(201).send(assetJson(db, createAsset(db, actor, input)));
  });

  app.put<AssetParams>('/workspaces/assets/:asset_id', async (request) =>
    assetJson(db, updateAsset(db, actorOf(request), request.params.asset_id, parse(UpdateAsset, request.body))),
  );

  app.delete('/workspaces/assets', async (request) => {
    const input = parse(DeleteAssets, request.body);
    // The same reading as the permission check's, which let this caller delete for good or not.
    const permanent = deletesPermanently(input, request.query);
    const { deleted, purgedKeys } = deleteAssets(db, actorOf(request), { ...input, permanent });
    for (const key of purgedKeys) await ctx.blobs.remove(key);
    return { success: true, deleted };
  });

  app.get<AssetParams>('/workspaces/assets/:asset_id', async (request) => {
    const { workspaceId } = workspaceCaller(request);
    const asset = getAsset(db, workspaceId, request.params.asset_id);
    const reviewRequests = (db.prepare('SELECT * FROM review_requests WHERE asset_id = ?').all(asset.id) as Array<Record<string, unknown>>).map((r) => ({
      ...r,
      user: loadUser(db, r.user_id as string),
      requestor: loadUser(db, r.requestor_id as string),
    }));
    return { ...assetJson(db, asset, { withVersions: true }), reviewRequests };
  });

  app.patch<AssetParams>('/workspaces/assets/:asset_id/restore', async (request) =>
    assetJson(db, restoreAsset(db, actorOf(request), request.params.asset_id, parse(RestoreAsset, request.body ?? {}))),
  );

  app.get<AssetParams>('/workspaces/assets/:asset_id/download', async (request, reply) => {
    const { workspaceId } = workspaceCaller(request);
    const asset = getAsset(db, workspaceId, request.params.asset_id);
    if (!asset.current_version_id) throw notFound('version');
    const version = getVersion(db, asset.id, asset.current_version_id);
    if (!asset.is_active) throw badRequest('The asset is deleted; restore it to download it.');
    return redirectToBlob(ctx, request, reply, version);
  });
}
