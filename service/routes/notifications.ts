import type { FastifyInstance } from 'fastify';
import { accountCaller, type ServiceContext } from '../context.js';
import { reviewJson, reviewRequestJson, type ReviewRequestRow, type ReviewRow } from '../store/collab-serialize.js';

/** Rows of table `x` in the caller's live workspaces of the account, on active assets. */
const IN_MY_WORKSPACES = `JOIN workspaces w ON w.id = x.workspace_id JOIN assets a ON a.id = x.asset_id
  WHERE w.account_id = ? AND w.deleted_at IS NULL AND a.is_active = 1
  AND EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = w.id AND m.user_id = ?)`;

/** What waits for the caller across every workspace of the account (reference part 4, "Notifications"). */
export function notificationRoutes(app: FastifyInstance, ctx: ServiceContext): void {
  const { db } = ctx;

  app.get('/reviewRequests', async (request) => {
    const { userId, accountId } = accountCaller(request);
    const rows = db
      .prepare(`SELECT x.* FROM review_requests x ${IN_MY_WORKSPACES} AND x.user_id = ? AND x.review_id IS NULL ORDER BY x.created_at, x.id`)
      .all(accountId, userId, userId) as ReviewRequestRow[];
    return rows.map((row) => reviewRequestJson(db, row, { withAsset: true }));
  });

  app.get('/changeRequests', async (request) => {
    const { userId, accountId } = accountCaller(request);
    const rows = db
      .prepare(`SELECT x.* FROM reviews x ${IN_MY_WORKSPACES} AND x.assigned_user_id = ? ORDER BY x.created_at, x.id`)
      .all(accountId, userId, userId) as ReviewRow[];
    return rows.map((row) => reviewJson(db, row));
  });
}
