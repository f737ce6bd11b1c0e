/**
 * Files still being written must not be uploaded half-done. Like Nextcloud, a file counts as
 * stable once its mtime is `quietMs` old; the engine rescans the others later.
 */

/** Nextcloud's default. */
export const DEFAULT_QUIET_MS = 2000;

/**
 * True when the mtime lies within `quietMs` of now, on either side: a writer's clock can be a
 * little ahead, but an mtime far in the future (a camera with a wrong clock) is not a write in
 * progress and must not hold the file back forever.
 */
export function isRecentlyModified(mtimeNs: string, nowMs: number, quietMs: number = DEFAULT_QUIET_MS): boolean {
  const mtimeMs = Number(BigInt(mtimeNs) / 1_000_000n);
  return Math.abs(nowMs - mtimeMs) < quietMs;
}

export interface StabilitySplit<T> {
  stable: Map<string, T>;
  /** Changed less than `quietMs` ago: wait and rescan. */
  unstable: Map<string, T>;
}

export function filterUnstable<T extends { mtimeNs: string }>(
  files: ReadonlyMap<string, T>,
  nowMs: number,
  quietMs: number = DEFAULT_QUIET_MS,
): StabilitySplit<T> {
  const stable = new Map<string, T>();
  const unstable = new Map<string, T>();
  for (const [key, file] of files) (isRecentlyModified(file.mtimeNs, nowMs, quietMs) ? unstable : stable).set(key, file);
  return { stable, unstable };
}
