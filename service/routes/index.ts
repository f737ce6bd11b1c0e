import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { authRoutes } from './auth.js';
import { syncRoutes } from './sync.js';
import { folderRoutes } from './folders.js';
import { uploadRoutes } from './uploads.js';
import { assetRoutes } from './assets.js';
import { versionRoutes } from './versions.js';
import { userRoutes } from './users.js';
import { accountRoutes } from './accounts.js';
import { notificationRoutes } from './notifications.js';
import { workspaceRoutes } from './workspaces.js';
import { workspaceCollectionRoutes } from './workspace-collections.js';
import { assetCollabRoutes } from './asset-collab.js';
import { zipRoutes } from './zip.js';
import { openApiRoutes } from './openapi.js';

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const register of [authRoutes, syncRoutes, folderRoutes, uploadRoutes, assetRoutes, versionRoutes]) register(app, ctx);
  for (const register of [userRoutes, accountRoutes, notificationRoutes, workspaceRoutes, workspaceCollectionRoutes, assetCollabRoutes, zipRoutes, openApiRoutes]) {
    register(app, ctx);
  }
}
