/**
 * Small app settings as JSON values. Never a secret: API keys, secrets and tokens belong in the
 * OS keychain, and `set` refuses keys that look like one so a slip fails loudly in development.
 */
import type { Db } from './database.js';

const SECRET_LIKE_KEY = /secret|password|passwd|token|api[_-]?key|credential/i;

export class SecretInIndexError extends Error {
  constructor(readonly key: string) {
    super(`refusing to store "${key}" in the index: secrets belong in the OS keychain`);
    this.name = 'SecretInIndexError';
  }
}

export class SettingsStore {
  private readonly getStmt;
  private readonly setStmt;
  private readonly deleteStmt;
  private readonly allStmt;

  constructor(db: Db) {
    this.getStmt = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.setStmt = db.prepare<[string, string]>('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
    this.deleteStmt = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
    this.allStmt = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings ORDER BY key');
  }

  /** The stored value; the caller knows (and should validate) its shape. */
  get<T = unknown>(key: string): T | undefined {
    const row = this.getStmt.get(key);
    return row && (JSON.parse(row.value) as T);
  }

  /** Any JSON-serialisable value; `undefined` deletes the key. */
  set(key: string, value: unknown): void {
    if (SECRET_LIKE_KEY.test(key)) throw new SecretInIndexError(key);
    if (value === undefined) this.delete(key);
    else this.setStmt.run(key, JSON.stringify(value));
  }

  delete(key: string): void {
    this.deleteStmt.run(key);
  }

  all(): Record<string, unknown> {
    return Object.fromEntries(this.allStmt.all().map((row) => [row.key, JSON.parse(row.value) as unknown]));
  }
}
