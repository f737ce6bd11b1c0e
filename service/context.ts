import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ServiceOptions } from './config.js';
import type { Db } from './db/db.js';
import type { BlobStore } from './blob/store.js';
import type { UrlSigner } from './blob/signer.js';
import type { AuthContext, TokenAuthority } from './http/auth.js';
import { badRequest, forbidden } from './http/errors.js';
import type { FaultInjector } from './http/faults.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

/** What every route module gets: the records, the blobs, the signer and the options. */
export interface ServiceContext {
  db: Db;
  blobs: BlobStore;
  signer: UrlSigner;
  tokens: TokenAuthority;
  options: ServiceOptions;
  faults?: FaultInjector | undefined;
}

export interface WorkspaceCaller {
  userId: string;
  accountId: string;
  workspaceId: string;
}

export function caller(request: FastifyRequest): AuthContext {
  if (!request.auth) throw forbidden();
  return request.auth;
}

export function accountCaller(request: FastifyRequest): AuthContext & { accountId: string } {
  const auth = caller(request);
  if (!auth.accountId) throw forbidden();
  return auth as AuthContext & { accountId: string };
}

export function workspaceCaller(request: FastifyRequest): WorkspaceCaller {
  const auth = caller(request);
  if (!auth.accountId || !auth.workspaceId) throw forbidden();
  return { userId: auth.userId, accountId: auth.accountId, workspaceId: auth.workspaceId };
}

/** Validates client input with a zod schema; a mismatch is a 400 that says which field is wrong. */
export function parse<T extends z.ZodType>(schema: T, value: unknown, what = 'request body'): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.length ? issue.path.join('.') : undefined;
  const where = field === undefined ? '' : ` at "${field}"`;
  throw badRequest(`Invalid ${what}${where}: ${issue?.message ?? 'malformed'}.`, field === undefined ? undefined : { field });
}

/** The acting user and workspace of a workspace-level request: what domain functions take. */
export function workspaceActor(request: FastifyRequest): { userId: string; workspaceId: string } {
  const { userId, workspaceId } = workspaceCaller(request);
  return { userId, workspaceId };
}
