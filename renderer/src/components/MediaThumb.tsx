import { useEffect, useState } from 'react';
import type { ThumbnailRef } from '../../../shared/ipc.js';
import { useServices } from '../store/context.js';

export interface MediaItem {
  assetId?: string;
  path?: string;
  versionId?: string;
}

/**
 * A small picture of one version, from the media API (`mediaThumbnails`): the picture made on
 * this computer, a video's own first frames, or the icon of its type when there is no picture.
 * One call per thumbnail: the lists it serves (review cards, conflicts) are short.
 */
export function MediaThumb({ workspaceId, item, label, size = 72 }: { workspaceId: string; item: MediaItem; label: string; size?: number }) {
  const { bridge } = useServices();
  const [ref, setRef] = useState<ThumbnailRef | 'loading' | 'failed'>('loading');
  const [broken, setBroken] = useState(false);
  const requestKey = JSON.stringify([workspaceId, item.assetId ?? null, item.path ?? null, item.versionId ?? null]);
  useEffect(() => {
    let current = true;
    const [ws, assetId, path, versionId] = JSON.parse(requestKey) as [string, string | null, string | null, string | null];
    setRef('loading');
    setBroken(false);
    bridge
      .invoke('mediaThumbnails', { workspaceId: ws, items: [{ ...(assetId ? { assetId } : {}), ...(path ? { path } : {}), ...(versionId ? { versionId } : {}) }] })
      .then(
        ([answer]) => current && setRef(answer ?? 'failed'),
        () => current && setRef('failed'),
      );
    return () => {
      current = false;
    };
  }, [bridge, requestKey]);

  const box = { width: size, height: size };
  if (ref === 'loading') return <span className="media-thumb media-thumb-loading" style={box} aria-hidden="true" />;
  if (ref !== 'failed' && !broken && ref.url !== null && ref.show === 'image') {
    return <img className="media-thumb" style={box} src={ref.url} alt={label} onError={() => setBroken(true)} />;
  }
  if (ref !== 'failed' && !broken && ref.url !== null && ref.show === 'video') {
    return <video className="media-thumb" style={box} src={`${ref.url}#t=0.5`} preload="metadata" muted aria-label={label} onError={() => setBroken(true)} />;
  }
  const type = ref === 'failed' ? null : ref.type;
  const word = type?.format ?? (type && type.category !== 'other' ? type.category : 'file');
  return (
    <span className="media-thumb media-thumb-icon" style={box} role="img" aria-label={`${label} (no picture)`}>
      <span aria-hidden="true">{word.toUpperCase()}</span>
    </span>
  );
}
