import { useEffect, useState } from 'react';
import { isConnected } from '../bridge/connection.js';
import { overallText, stateText, stateTone, type Tone } from '../format.js';
import type { UiState } from '../store/store.js';
import { useUiState } from '../store/context.js';
import { StateIcon } from './StateIcon.js';

/** How long a state must last before screen readers are told about it. */
export const ANNOUNCE_AFTER_MS = 1500;

const NOT_CONNECTED = 'Not connected to Asset Sync';

/**
 * The header's state. What is shown follows every report ("Syncing 47 files", "Checking the
 * service"); what is announced is a coarser summary that changes only when the state really does.
 */
export function HeaderState() {
  const state = useUiState();
  const { tone, words } = shownState(state);
  const announced = useSettled(announcedState(state), ANNOUNCE_AFTER_MS);
  return (
    <>
      <p className={`header-state tone-${tone}`} data-testid="header-state">
        <StateIcon tone={tone} />
        <span>{words}</span>
      </p>
      <p className="visually-hidden" role="status" aria-live="polite" data-testid="header-announcement">
        {announced}
      </p>
    </>
  );
}

function shownState({ status, connection }: UiState): { tone: Tone; words: string } {
  if (!isConnected(connection) || status.kind === 'error') return { tone: 'offline', words: NOT_CONNECTED };
  if (status.kind === 'loading') return { tone: 'busy', words: 'Connecting…' };
  return { tone: stateTone(status.value.state), words: overallText(status.value) };
}

/**
 * The state in as few words as tell it apart: no counts, and nothing for the brief checks of the
 * service and the folder that an idle engine makes every few seconds (null: say nothing new).
 */
export function announcedState({ status, connection }: UiState): string | null {
  if (!isConnected(connection) || status.kind === 'error') return NOT_CONNECTED;
  if (status.kind === 'loading') return null;
  const { state } = status.value;
  switch (state) {
    case 'starting':
    case 'scanning':
    case 'listing':
      return null;
    case 'syncing':
      return 'Syncing';
    default:
      return stateText(state);
  }
}

/** `next` once it has lasted `ms` (a null keeps the last target); '' until then. */
function useSettled(next: string | null, ms: number): string {
  const [target, setTarget] = useState<string | null>(next);
  const [settled, setSettled] = useState('');
  // A null is a moment in between: the pending target stays.
  if (next !== null && next !== target) setTarget(next);
  useEffect(() => {
    if (target === null || target === settled) return;
    const timer = setTimeout(() => setSettled(target), ms);
    return () => clearTimeout(timer);
  }, [target, settled, ms]);
  return settled;
}
