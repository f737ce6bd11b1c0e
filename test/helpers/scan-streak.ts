/** How long a running engine has gone without walking its folder, from the states it reports. */
import type { Device } from './engine.js';

/** Counts the cycles since the last one that walked the folder, from the states the engine reports. */
export function cyclesWithoutScan(device: Device): () => number {
  let streak = 0;
  let scanned = false;
  let last = '';
  device.engine.on('status', (status) => {
    const state = status.workspaces[0]?.state ?? '';
    if (state === last) return;
    last = state;
    if (state === 'listing') scanned = false;
    if (state === 'scanning') scanned = true;
    if (state === 'up-to-date') streak = scanned ? 0 : streak + 1;
  });
  return () => streak;
}
