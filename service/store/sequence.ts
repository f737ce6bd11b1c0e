import type { Db } from '../db/db.js';

/** The workspace's next change sequence: one counter per workspace, strictly increasing. */
export function nextSequence(db: Db, workspaceId: string): number {
  const row = db.prepare('UPDATE workspaces SET sequence = sequence + 1 WHERE id = ? RETURNING sequence').get(workspaceId) as
    | { sequence: number }
    | undefined;
  if (!row) throw new Error(`workspace ${workspaceId} vanished`);
  return row.sequence;
}
