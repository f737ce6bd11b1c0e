/**
 * The last quiet cycle (quiet-cycle.ts) kept in the index, so that a fresh process on a workspace
 * nothing changed in tells what that cycle told and plans nothing, without reading the base or
 * the remote tree. The planner is a pure function: the same inputs give the same empty plan. The
 * record holds what the inputs were told apart by:
 *
 * - the index: its write count (quiet-cycles.ts), which moves with every row written to what a
 *   cycle plans from (base, remote tree and cursor, hash cache, journal, errors and backoff,
 *   settings, workspaces), by any process;
 * - the service: the changes feed answers nothing after the stored cursor (remote-mirror.ts);
 * - the disk: the scan's fingerprint, with the ignore rules it was filtered by, and the print of
 *   its paths and stamps alone, which lets the next walk skip the hash cache as in-process;
 * - what the process plans with beyond them: this device's name, the user, the folder, the
 *   excluded folders, how long a file must be left alone, and the record's own form.
 *
 * A record is kept only where the in-process memo is (a clean plan: nothing waiting, held,
 * unplaced or backing off) and no file is locked by someone else, so a replay needs nothing of
 * the remote tree: the lock guard has nothing to do.
 */
import { createHash } from 'node:crypto';
import type { Problem } from '../../shared/engine.js';
import type { SyncIndex } from '../index/sync-index.js';
import type { Plan } from '../sync/planner/plan.js';

/** Bumped whenever what a record means changes: an older record then never matches. */
const RECORD_FORM = 1;

export interface QuietRecord {
  /** What the cycle planned under (`quietContext`). */
  context: string;
  /** The scan's fingerprint (quiet-cycle.ts). */
  scan: string;
  /**
   * The print of the walk's paths and stamps alone (stamp-print.ts), when the hash cache vouched
   * for every checksum the scan found: the next process's walk then need not ask the cache.
   */
  stamps: string | null;
  plan: Plan;
  /** The problems the cycle told after its scan: a replay tells them again. */
  problems: Problem[];
}

export interface QuietContext {
  dir: string;
  excluded: readonly string[];
  deviceName: string;
  selfUserId: string;
  quietMs: number;
  /** The user's ignore rules (undefined: none). */
  ignoreRules: string | undefined;
}

/** Everything a cycle plans with besides the index, the service and the scan, as one digest. */
export function quietContext(c: QuietContext): string {
  const parts = [RECORD_FORM, c.dir, [...c.excluded], c.deviceName, c.selfUserId, c.quietMs, c.ignoreRules ?? null];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** Keeps the quiet cycle's record for the next process, as of the index's write count now. */
export function keepQuietRecord(index: SyncIndex, workspaceId: string, record: QuietRecord): void {
  index.quietCycles.save(workspaceId, record);
}

/** The kept record, when it was kept under `context` and nothing was written to the index since. */
export function quietRecord(index: SyncIndex, workspaceId: string, context: string): { writes: number; record: QuietRecord } | null {
  const stored = index.quietCycles.load<QuietRecord>(workspaceId);
  if (stored === undefined || stored.record.context !== context || stored.writes !== index.quietCycles.writeCount()) return null;
  return stored;
}
