/** The actions on one version that Versions and Compare both offer. */
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { VersionInfo } from '../../../shared/ipc.js';
import { useServices } from '../store/context.js';

type Run = (action: () => Promise<string | null>) => Promise<void>;

/**
 * "Make current" over a set of versions: one question open at a time, the restore run through
 * the screen's `run`, and the focus back on the version's button when the question closes.
 */
export function useMakeCurrent(workspaceId: string, path: string, run: Run, onChanged: () => void) {
  const { bridge } = useServices();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [returnFocusTo, setReturnFocusTo] = useState<string | null>(null);
  const restore = (version: VersionInfo) =>
    void run(async () => {
      setConfirming(null);
      setReturnFocusTo(version.id);
      await bridge.invoke('restoreVersion', { workspaceId, path, versionId: version.id });
      onChanged();
      return `Version ${version.number} is current again.`;
    });
  return {
    /** The question for this version while it is asked (it takes the place of the version's actions), else null. */
    question: (version: VersionInfo): ReactNode =>
      confirming === version.id ? (
        <RestoreConfirm
          number={version.number}
          onConfirm={() => restore(version)}
          onCancel={() => {
            setConfirming(null);
            setReturnFocusTo(version.id);
          }}
        />
      ) : null,
    /** The button, for a version that can be made current. */
    button: (version: VersionInfo, busy: boolean): ReactNode =>
      version.current || version.deleted ? null : (
        <MakeCurrentButton number={version.number} disabled={busy} takeFocus={returnFocusTo === version.id} onFocused={() => setReturnFocusTo(null)} onClick={() => setConfirming(version.id)} />
      ),
  };
}

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

