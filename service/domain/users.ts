/** The caller's own record: profile changes and deactivation. */
import type { Db } from '../db/db.js';
import { notFound } from '../http/errors.js';
import type { UserRow } from '../store/rows.js';

export interface UserChanges {
  firstName?: string | undefined;
  lastName?: string | undefined;
  username?: string | undefined;
  company?: string | null | undefined;
  industry?: string | null | undefined;
  occupation?: string | null | undefined;
  city?: string | null | undefined;
  state?: string | null | undefined;
  country?: string | null | undefined;
  zipCode?: string | null | undefined;
  defaultAvatar?: number | undefined;
}

const COLUMNS: Record<keyof UserChanges, keyof UserRow> = {
  firstName: 'first_name', lastName: 'last_name', username: 'username', company: 'company', industry: 'industry',
  occupation: 'occupation', city: 'city', state: 'state', country: 'country', zipCode: 'zip_code', defaultAvatar: 'default_avatar',
};

export function getUserRow(db: Db, userId: string): UserRow {
  const row = db.prepare('SELECT * FROM users WHERE id = ?').get(userId) as UserRow | undefined;
  if (!row) throw notFound('user');
  return row;
}

/** Applies the given fields (and a new avatar key); returns the updated row and the avatar key it replaced. */
export function updateUser(db: Db, userId: string, changes: UserChanges, avatarKey?: string): { user: UserRow; replacedAvatar: string | null } {
  return db.transaction(() => {
    const before = getUserRow(db, userId);
    const sets: string[] = [];
    const values: unknown[] = [];
    for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof UserChanges, keyof UserRow]>) {
      const value = changes[field];
      if (value === undefined) continue;
      sets.push(`${column} = ?`);
      values.push(value);
    }
    if (avatarKey) {
      sets.push('avatar_key = ?');
      values.push(avatarKey);
    }
    if (sets.length > 0) db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = ?`).run(...values, userId);
    return { user: getUserRow(db, userId), replacedAvatar: avatarKey ? before.avatar_key : null };
  })();
}

/** DELETE /users: the user stays (their history refers to them) but can no longer sign in. */
export function deactivateUser(db: Db, userId: string): void {
  db.prepare('UPDATE users SET is_active = 0 WHERE id = ?').run(userId);
}
