import { useCallback, useEffect, useRef, useState } from 'react';
import type { Channel, RequestOf, Responses } from '../../../shared/ipc.js';
import { errorMessage } from '../bridge/errors.js';
import { useServices } from './context.js';
import type { Loadable } from './store.js';

const LOADING = { kind: 'loading' } as const;

/**
 * One call's answer for a screen (a listing, a version list). It reloads when the request or
 * `refreshKey` changes, and keeps showing the last answer while a refresh is on its way. A null
 * request asks nothing and answers "loading".
 */
export function useQuery<C extends Channel>(channel: C, request: RequestOf<C> | null, refreshKey = ''): { result: Loadable<Responses[C]>; reload: () => void } {
  const { bridge } = useServices();
  const [result, setResult] = useState<Loadable<Responses[C]>>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  const requestKey = request === null ? null : JSON.stringify(request);
  const shownKey = useRef<string | null>(null);
  /**
   * One call at a time per request: a refresh asked while an answer is on its way (a workspace
   * changes state several times while it syncs) is made once that answer is here, and that
   * answer is shown meanwhile: thrown away, a large folder would stay "loading" until the
   * workspace went quiet, and each call lists the whole folder again. Calls are numbered; only
   * an answer to the request now asked, newer than the one shown, is shown.
   */
  const calls = useRef({ key: null as string | null, issued: 0, shown: 0, inFlight: 0, again: false });

  useEffect(
    () => () => {
      calls.current.key = null;
    },
    [],
  );

  useEffect(() => {
    const tracker = calls.current;
    // No request: nothing is asked, and the answer to the last one is no longer shown.
    if (requestKey === null) {
      tracker.key = null;
      shownKey.current = null;
      setResult({ kind: 'loading' });
      return;
    }
    // A different request shows "loading"; a refresh of the same one keeps the old answer.
    if (shownKey.current !== requestKey) setResult({ kind: 'loading' });
    if (tracker.key === requestKey && tracker.inFlight !== 0) {
      tracker.again = true;
      return;
    }
    tracker.key = requestKey;
    const ask = () => {
      const call = (tracker.issued += 1);
      tracker.inFlight = call;
      tracker.again = false;
      const settle = (next: Loadable<Responses[C]>) => {
        if (tracker.key !== requestKey || call < tracker.shown) return;
        tracker.shown = call;
        shownKey.current = next.kind === 'ready' ? requestKey : null;
        setResult(next);
      };
      bridge
        .invoke(channel, JSON.parse(requestKey) as RequestOf<C>)
        .then(
          (value) => settle({ kind: 'ready', value }),
          (error: unknown) => settle({ kind: 'error', message: errorMessage(error) }),
        )
        .finally(() => {
          if (tracker.inFlight !== call) return;
          tracker.inFlight = 0;
          if (tracker.again && tracker.key === requestKey) ask();
        });
    };
    ask();
  }, [bridge, channel, requestKey, refreshKey, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  // Until the effect has run, the state may still hold the answer to the request before.
  const stale = result.kind === 'ready' && shownKey.current !== requestKey;
  return { result: stale ? LOADING : result, reload };
}
