/**
 * Who made the versions the activity feed shows, and their notes: asked for in one call per
 * workspace for the entries on screen that are not known yet, and kept for the page's life
 * (main keeps them too, and refreshes what it kept after a while).
 */
import { useEffect, useState } from 'react';
import type { ActivityItem } from '../../../shared/engine.js';
import type { AssetSyncBridge, VersionSummary } from '../../../shared/ipc.js';
import { useServices } from './context.js';

/** Known answers by version id; null: the service could not say (the engine's words stand). */
type Known = Map<string, VersionSummary | null>;

const knownByBridge = new WeakMap<AssetSyncBridge, Known>();

const MAX_ITEMS = 100;

export function useVersionSummaries(items: readonly ActivityItem[]): ReadonlyMap<string, VersionSummary | null> {
  const { bridge } = useServices();
  let known = knownByBridge.get(bridge);
  if (!known) knownByBridge.set(bridge, (known = new Map()));
  const [, setGeneration] = useState(0);
  const wanted = items.filter((i) => i.version && !known.has(i.version.versionId));
  const wantedKey = wanted.map((i) => i.version?.versionId).join(',');

  useEffect(() => {
    if (wanted.length === 0) return;
    let current = true;
    const byWorkspace = new Map<string, Array<{ assetId: string; versionId: string }>>();
    for (const item of wanted) {
      if (!item.version) continue;
      const list = byWorkspace.get(item.workspaceId) ?? [];
      if (!list.some((r) => r.versionId === item.version?.versionId)) list.push({ assetId: item.version.assetId, versionId: item.version.versionId });
      byWorkspace.set(item.workspaceId, list);
    }
    const calls = [...byWorkspace].flatMap(([workspaceId, refs]) => {
      const chunks: Array<Promise<void>> = [];
      for (let i = 0; i < refs.length; i += MAX_ITEMS) {
        const chunk = refs.slice(i, i + MAX_ITEMS);
        chunks.push(
          bridge.invoke('describeVersions', { workspaceId, items: chunk }).then(
            (answers) => chunk.forEach((ref, n) => known.set(ref.versionId, answers[n] ?? null)),
            // Not now (offline, signed out): the engine's words stand, and the next render asks again.
            () => undefined,
          ),
        );
      }
      return chunks;
    });
    void Promise.all(calls).then(() => {
      if (current) setGeneration((g) => g + 1);
    });
    return () => {
      current = false;
    };
    // The ids asked for say it all; the items themselves change with every event.
  }, [bridge, wantedKey]);
  return known;
}
