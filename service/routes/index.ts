import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context.js';
import { authRoutes } from './auth.js';
import { syncRoutes } from './sync.js';
import { folderRoutes } from './folders.js';
import { uploadRoutes } from './uploads.js';
import { assetRoutes } from './assets.js';
import { versionRoutes } from './versions.js';

export function registerRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  for (const register of [authRoutes, syncRoutes, folderRoutes, uploadRoutes, assetRoutes, versionRoutes]) register(app, ctx);
}
