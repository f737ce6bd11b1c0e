/** The actions on one version that Versions and Compare both offer. */
import { useEffect, useRef } from 'react';
import type { VersionInfo } from '../../../shared/ipc.js';
import { useServices } from '../store/context.js';

type Run = (action: () => Promise<string | null>) => Promise<void>;

export function SaveCopyButton({ workspaceId, path, version, run }: { workspaceId: string; path: string; version: VersionInfo; run: Run }) {
  const { bridge } = useServices();
  return (
    <button
      type="button"
      aria-label={`Save a copy of version ${version.number}`}
      onClick={() =>
        void run(async () => {
          const { savedTo } = await bridge.invoke('saveVersionCopy', { workspaceId, path, versionId: version.id });
          return savedTo === null ? null : `Saved version ${version.number} to ${savedTo}.`;
        })
      }
    >
      Save a copy
    </button>
  );
}

/**
 * Opens the question below. When the question closes, the focus comes back here (once the
 * restore is done, if it was confirmed), unless the user has put it somewhere else meanwhile.
 */
export function MakeCurrentButton({ number, disabled, takeFocus, onFocused, onClick }: { number: number; disabled: boolean; takeFocus: boolean; onFocused: () => void; onClick: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!takeFocus || disabled) return;
    const active = document.activeElement;
    if (active === null || active === document.body) ref.current?.focus();
    onFocused();
  }, [takeFocus, disabled, onFocused]);
  return (
    <button type="button" ref={ref} aria-label={`Make version ${number} current`} onClick={onClick} disabled={disabled}>
      Make current
    </button>
  );
}

/** Restoring adds a new version everyone gets: ask once, with focus on the choice. */
export function RestoreConfirm({ number, onConfirm, onCancel }: { number: number; onConfirm: () => void; onCancel: () => void }) {
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => confirmRef.current?.focus(), []);
  return (
    <div role="group" aria-label={`Make version ${number} current?`} className="confirm" onKeyDown={(e) => e.key === 'Escape' && onCancel()}>
      <span className="small">Make version {number} current for everyone?</span>
      <button type="button" ref={confirmRef} className="primary" onClick={onConfirm}>
        Yes, make current
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

