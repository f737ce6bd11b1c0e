import { useCallback, useRef, useState } from 'react';
import { errorMessage } from '../bridge/errors.js';

export type Outcome = { kind: 'idle' } | { kind: 'busy' } | { kind: 'done'; message: string } | { kind: 'failed'; message: string };

/**
 * Runs a user's action and keeps its outcome in words, for a live region. `run` answers the
 * message to announce on success. An action that succeeds after a later one started leaves the
 * later one's outcome in place (a slow open must not wipe "Saved…"); a failure is always told.
 */
export function useAction(): { outcome: Outcome; run: (action: () => Promise<string | null>) => Promise<void> } {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const latest = useRef(0);
  const run = useCallback(async (action: () => Promise<string | null>) => {
    const mine = ++latest.current;
    setOutcome({ kind: 'busy' });
    try {
      const message = await action();
      if (mine === latest.current) setOutcome(message === null ? { kind: 'idle' } : { kind: 'done', message });
    } catch (error) {
      setOutcome({ kind: 'failed', message: errorMessage(error) });
    }
  }, []);
  return { outcome, run };
}

/** Where an action's outcome is announced: politely when it worked, at once when it failed. */
export function ActionStatus({ outcome }: { outcome: Outcome }) {
  return (
    <>
      <p className="action-status" role="status">
        {outcome.kind === 'done' ? outcome.message : ''}
      </p>
      <p className="action-status action-error" role="alert">
        {outcome.kind === 'failed' ? outcome.message : ''}
      </p>
    </>
  );
}
