import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import type { ThumbnailSize } from '../../../shared/ipc.js';
import { thumbnailKey, thumbnailLoader, type MediaItem } from '../media/thumbnail-loader.js';
import { useServices } from '../store/context.js';
import { CATEGORY_NAMES, TypeIcon } from './TypeIcon.js';

export interface ThumbnailProps {
  workspaceId: string;
  /** The asset (by id, or by its synced path) and, when not the synced one, the version. */
  item: MediaItem;
  /** The box's edge in CSS pixels; the picture fits inside it, its proportions kept. */
  size?: number;
  /** Which picture to ask for: 'grid' (up to 256 px) fits boxes up to 128 px, 'preview' larger ones. */
  quality?: ThumbnailSize;
  /** What the picture shows, for screen readers; '' (the default) where the name is written beside it. */
  alt?: string;
}

/**
 * A picture of a file or one of its versions: the thumbnail made on this computer, a video's
 * first frame drawn by the page's own player, or the icon of its kind. Asked for with every other
 * thumbnail on screen (thumbnail-loader.ts); a picture that fails to load is asked for once more
 * (its address may have expired), then the icon stays. Never an error.
 */
export function Thumbnail({ workspaceId, item, size = 40, quality = 'grid', alt = '' }: ThumbnailProps) {
  const { bridge } = useServices();
  const loader = thumbnailLoader(bridge);
  const key = thumbnailKey(workspaceId, item, quality);
  const subscribe = useCallback((listener: () => void) => loader.subscribe(key, listener), [loader, key]);
  const entry = useSyncExternalStore(subscribe, () => loader.get(key));
  const [failures, setFailures] = useState(0);
  const { assetId, path, versionId } = item;
  useEffect(() => loader.want(workspaceId, { assetId, path, versionId }, quality), [loader, workspaceId, assetId, path, versionId, quality]);
  useEffect(() => setFailures(0), [key]);

  const box = { width: size, height: size };
  // Nothing to name yet: the picture, once here, carries the name.
  if (!entry || entry.state === 'loading') return <span className="thumb thumb-loading" style={box} aria-hidden="true" />;
  const ref = entry.state === 'ready' ? entry.ref : null;
  const category = ref?.type.category ?? 'other';
  const iconLabel = alt || undefined;
  const onError = () => {
    // Once more with a fresh address; then the icon.
    if (failures === 0) loader.forget(key);
    setFailures((n) => n + 1);
  };
  if (ref && ref.url && failures < 2 && ref.show === 'image') {
    return (
      <span className="thumb" style={box}>
        <img src={ref.url} alt={alt} loading="lazy" decoding="async" draggable={false} onError={onError} />
      </span>
    );
  }
  if (ref && ref.url && failures < 2 && ref.show === 'video') {
    // The browser decodes the first frame itself: a poster made without a byte of ours.
    return (
      <span className="thumb thumb-video" style={box} role={alt ? 'img' : undefined} aria-label={iconLabel} aria-hidden={alt ? undefined : true}>
        <video src={`${ref.url}#t=0.5`} preload="metadata" muted playsInline tabIndex={-1} aria-hidden="true" onError={onError} />
        <TypeIcon category="video" size={Math.min(20, size / 2)} />
      </span>
    );
  }
  return (
    <span
      className="thumb thumb-icon"
      style={box}
      role={alt ? 'img' : undefined}
      aria-label={iconLabel}
      aria-hidden={alt ? undefined : true}
      title={ref?.type.format ? `${CATEGORY_NAMES[category]} (${ref.type.format.toUpperCase()})` : CATEGORY_NAMES[category]}
    >
      <TypeIcon category={category} format={ref?.type.format ?? null} size={Math.round(size * 0.8)} />
    </span>
  );
}
