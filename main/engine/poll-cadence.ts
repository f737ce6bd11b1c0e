/**
 * How long the engine waits before it asks the service again. A pure decision, so the cadence
 * can be tested without clocks: the scheduler in engine.ts only carries it out.
 *
 * Rules:
 * - Someone is looking (the app's window or the web UI is open) or a transfer ran within the
 *   last minute: ask every 2 s, so a colleague's version is here within seconds. Only with the
 *   changes feed: then each poll is one small request (the changes since our cursor), not a
 *   listing of the whole workspace.
 * - Otherwise (idle, or a service without the feed): the configured interval.
 * - Polls that fail in a row double the wait, up to the configured interval: an outage is not
 *   hammered every 2 s, and the wait never grows past what the user configured.
 */

/** The cadence while someone looks or transfers run. */
export const FAST_POLL_MS = 2000;
/** A transfer keeps the fast cadence this long: more changes tend to follow the first. */
export const ACTIVE_AFTER_TRANSFER_MS = 60_000;

export interface PollInputs {
  /** The service answers the changes feed (our extension): a fast poll costs one small request. */
  feed: boolean;
  /** The app's window is visible, or the web UI has an event stream open. */
  watched: boolean;
  /** When a transfer last ran (ms since the epoch); null: none since the start. */
  lastTransferAt: number | null;
  now: number;
  /** The configured poll interval. */
  intervalMs: number;
  /** Polls that failed in a row (0: the last one worked). */
  failures: number;
}

/** Whether the fast cadence applies: someone looks, or a transfer ran within the last minute. */
export function isActive(inputs: Pick<PollInputs, 'watched' | 'lastTransferAt' | 'now'>): boolean {
  if (inputs.watched) return true;
  if (inputs.lastTransferAt === null) return false;
  const since = inputs.now - inputs.lastTransferAt;
  // A transfer "in the future" (the clock was set back) counts as recent until the clock catches up.
  return since < ACTIVE_AFTER_TRANSFER_MS;
}

/** Milliseconds until the next poll. */
export function nextPollDelay(inputs: PollInputs): number {
  const interval = Math.max(1, inputs.intervalMs);
  const base = inputs.feed && isActive(inputs) ? Math.min(FAST_POLL_MS, interval) : interval;
  // Capped exponent: 2 ** 31 ms is already past any interval the settings allow.
  const backedOff = base * 2 ** Math.min(Math.max(0, inputs.failures), 31);
  return Math.min(backedOff, Math.max(base, interval));
}
