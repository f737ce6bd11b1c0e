import { useCallback, useEffect, useRef, useState } from 'react';
import type { Channel, RequestOf, Responses } from '../../../shared/ipc.js';
import { errorMessage } from '../bridge/errors.js';
import { useServices } from './context.js';
import type { Loadable } from './store.js';

/**
 * One call's answer for a screen (a listing, a version list). It reloads when the request or
 * `refreshKey` changes, and keeps showing the last answer while a refresh is on its way.
 */
export function useQuery<C extends Channel>(channel: C, request: RequestOf<C> | null, refreshKey = ''): { result: Loadable<Responses[C]>; reload: () => void } {
  const { bridge } = useServices();
  const [result, setResult] = useState<Loadable<Responses[C]>>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  const requestKey = request === null ? null : JSON.stringify(request);
  const shownKey = useRef<string | null>(null);

  useEffect(() => {
    if (requestKey === null) return;
    let current = true;
    // A different request shows "loading"; a refresh of the same one keeps the old answer.
    if (shownKey.current !== requestKey) setResult({ kind: 'loading' });
    bridge.invoke(channel, JSON.parse(requestKey) as RequestOf<C>).then(
      (value) => {
        if (!current) return;
        shownKey.current = requestKey;
        setResult({ kind: 'ready', value });
      },
      (error: unknown) => {
        if (!current) return;
        shownKey.current = null;
        setResult({ kind: 'error', message: errorMessage(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [bridge, channel, requestKey, refreshKey, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { result, reload };
}
