/**
 * Thumbnails for whatever is on screen, asked for in batches: every thumbnail that mounts within
 * one short window (a page of a list, the rows a scroll brings in) goes out as one
 * `mediaThumbnails` call per workspace, and one that left the screen before the call went out is
 * not asked for. Answers are kept by item until their address expires; a failed call leaves the
 * type icon, never an error.
 */
import type { AssetSyncBridge, ThumbnailRef, ThumbnailSize } from '../../../shared/ipc.js';

/** An asset by id, or a synced file by path; its synced version unless one is named. */
export interface MediaItem {
  assetId?: string | null;
  path?: string | null;
  versionId?: string | null;
}

export type ThumbnailEntry = { state: 'loading' } | { state: 'ready'; ref: ThumbnailRef } | { state: 'failed' };

/** How long the loader gathers requests before it sends them. */
const BATCH_MS = 16;
/** The channel takes up to 500 items a call. */
const MAX_ITEMS = 500;
/** Answers kept; past that, the oldest go first. */
const KEPT = 4000;

export const thumbnailKey = (workspaceId: string, item: MediaItem, size: ThumbnailSize): string =>
  [workspaceId, item.assetId ?? '', item.path ?? '', item.versionId ?? '', size].join('\n');

interface Wanted {
  workspaceId: string;
  item: MediaItem;
  size: ThumbnailSize;
  /** How many mounted thumbnails want it. */
  count: number;
}

export class ThumbnailLoader {
  private readonly entries = new Map<string, ThumbnailEntry>();
  private readonly wanted = new Map<string, Wanted>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly bridge: AssetSyncBridge,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): ThumbnailEntry | undefined {
    return this.entries.get(key);
  }

  subscribe(key: string, listener: () => void): () => void {
    let set = this.listeners.get(key);
    if (!set) this.listeners.set(key, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(key);
    };
  }

  /**
   * A thumbnail on screen wants its picture: asked for with the next batch unless it is known
   * and not expired. Answers the way to say it left the screen.
   */
  want(workspaceId: string, item: MediaItem, size: ThumbnailSize): () => void {
    const key = thumbnailKey(workspaceId, item, size);
    const known = this.entries.get(key);
    if (known?.state === 'ready' && this.expired(known.ref)) this.entries.delete(key);
    const wanted = this.wanted.get(key);
    if (wanted) wanted.count += 1;
    else this.wanted.set(key, { workspaceId, item, size, count: 1 });
    if (!this.entries.has(key)) this.schedule();
    return () => {
      const w = this.wanted.get(key);
      if (w && --w.count <= 0) this.wanted.delete(key);
    };
  }

  /** The picture did not load (its address expired, the cache lost it): ask again once it is wanted. */
  forget(key: string): void {
    if (!this.entries.delete(key)) return;
    this.notify(key);
    if (this.wanted.has(key)) this.schedule();
  }

  private expired(ref: ThumbnailRef): boolean {
    return ref.expiresAt !== null && Date.parse(ref.expiresAt) <= this.now();
  }

  private schedule(): void {
    this.timer ??= setTimeout(() => {
      this.timer = null;
      void this.flush();
    }, BATCH_MS);
  }

  private async flush(): Promise<void> {
    const groups = new Map<string, Array<[string, Wanted]>>();
    for (const [key, w] of this.wanted) {
      if (this.entries.has(key)) continue;
      this.set(key, { state: 'loading' });
      const group = `${w.workspaceId}\n${w.size}`;
      const list = groups.get(group) ?? [];
      list.push([key, w]);
      groups.set(group, list);
    }
    const calls: Array<Promise<void>> = [];
    for (const list of groups.values()) {
      for (let i = 0; i < list.length; i += MAX_ITEMS) calls.push(this.send(list.slice(i, i + MAX_ITEMS)));
    }
    await Promise.all(calls);
  }

  private async send(batch: Array<[string, Wanted]>): Promise<void> {
    const first = batch[0]?.[1];
    if (!first) return;
    const items = batch.map(([, w]) => ({
      ...(w.item.assetId ? { assetId: w.item.assetId } : {}),
      ...(w.item.path ? { path: w.item.path } : {}),
      ...(w.item.versionId ? { versionId: w.item.versionId } : {}),
    }));
    try {
      const refs = await this.bridge.invoke('mediaThumbnails', { workspaceId: first.workspaceId, items, size: first.size });
      batch.forEach(([key], i) => {
        const ref = refs[i];
        this.set(key, ref ? { state: 'ready', ref } : { state: 'failed' });
      });
    } catch (_error) {
      // No pictures now (not signed in, a host that makes none): the icons stand in.
      for (const [key] of batch) this.set(key, { state: 'failed' });
    }
  }

  private set(key: string, entry: ThumbnailEntry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > KEPT) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined && !this.wanted.has(oldest)) this.entries.delete(oldest);
    }
    this.notify(key);
  }

  private notify(key: string): void {
    for (const listener of this.listeners.get(key) ?? []) listener();
  }
}

const loaders = new WeakMap<AssetSyncBridge, ThumbnailLoader>();

/** The one loader of a bridge: every thumbnail of the page shares its batches and answers. */
export function thumbnailLoader(bridge: AssetSyncBridge): ThumbnailLoader {
  let loader = loaders.get(bridge);
  if (!loader) loaders.set(bridge, (loader = new ThumbnailLoader(bridge)));
  return loader;
}
