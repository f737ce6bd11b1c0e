import { useEffect, useState } from 'react';
import type { FileEntry } from '../../../shared/ipc.js';
import { useServices } from '../store/context.js';
import type { useAction } from './ActionStatus.js';

/**
 * Lock a synced file while editing it (others get it read-only until it is unlocked), or
 * release the lock. Nothing for a file someone else holds: its state names them.
 */
export function LockButton({ workspaceId, entry, run }: { workspaceId: string; entry: FileEntry; run: ReturnType<typeof useAction>['run'] }) {
  const { bridge } = useServices();
  // What the last answer said, until the listing catches up with it.
  const [mine, setMine] = useState(entry.lockedByYou === true);
  useEffect(() => setMine(entry.lockedByYou === true), [entry.lockedByYou]);
  if (entry.isFolder || entry.assetId === null || entry.state === 'locked' || entry.state === 'local-only' || entry.state === 'remote-only') return null;
  const toggle = () =>
    void run(async () => {
      const answer = await bridge.invoke('setLock', { workspaceId, path: entry.path, locked: !mine });
      setMine(answer.byYou);
      return answer.byYou ? `Locked ${entry.name}: it is read-only for everyone else until you unlock it.` : `Unlocked ${entry.name}.`;
    });
  return (
    <button type="button" onClick={toggle} aria-label={mine ? `Unlock ${entry.name} (you hold the lock)` : `Lock ${entry.name}`}>
      {mine ? 'Unlock' : 'Lock'}
    </button>
  );
}
