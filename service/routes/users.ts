import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { caller, type ServiceContext } from '../context.js';
import { userAccounts } from '../domain/accounts.js';
import { deactivateUser, getUserRow, updateUser } from '../domain/users.js';
import { discardFile, readForm } from '../http/multipart.js';
import { accountJson } from '../store/collab-serialize.js';
import { userJson } from '../store/serialize.js';

const text = z.string().max(255);
/** Writable fields of User; `id`, `email` and `idpUserID` are read-only and ignored when sent. */
const UserChanges = z.object({
  firstName: text.optional(),
  lastName: text.optional(),
  username: text.min(1).optional(),
  company: text.nullish(),
  industry: text.nullish(),
  occupation: text.nullish(),
  city: text.nullish(),
  state: text.nullish(),
  country: text.nullish(),
  zipCode: z.string().max(32).nullish(),
  defaultAvatar: z.number().int().min(1).max(10).optional(),
});

/** The caller's own record (reference part 4, "User"): token only, no account header. */
export function userRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;

  app.get('/users', async (request) => userJson(getUserRow(db, caller(request).userId)));

  app.patch('/users', async (request) => {
    const { userId } = caller(request);
    const { body, file } = await readForm(ctx, request, UserChanges, { userId });
    const { user: row, replacedAvatar } = updateUser(db, userId, body, file?.key);
    if (replacedAvatar) await discardFile(ctx, replacedAvatar);
    return userJson(row);
  });

  app.delete('/users', async (request, reply) => {
    deactivateUser(db, caller(request).userId);
    return reply.code(204).send();
  });

  app.get('/users/permissions', async (request) => {
    const { userId } = caller(request);
    const row = getUserRow(db, userId);
    const accounts = userAccounts(db, userId);
    const personal = accounts.find((a) => a.created_by_user_id === userId && a.tier_id === 'tier_free');
    return {
      id: row.id,
      idpUserID: row.idp_user_id,
      email: row.email,
      accounts: accounts.map((a) => accountJson(db, a, userId)),
      personalAccount: personal ? accountJson(db, personal, userId) : null,
    };
  });

  app.get('/users/accounts', async (request) => {
    const { userId } = caller(request);
    return userAccounts(db, userId).map((a) => accountJson(db, a, userId));
  });
}
