import { useCallback, useState } from 'react';

/**
 * A choice the user made on this computer (list or grid), kept in localStorage: it belongs to
 * this app's origin, holds nothing secret, and is read again at the next start.
 */
export function useStoredChoice<T extends string>(key: string, choices: readonly T[], fallback: T): [T, (next: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return choices.find((c) => c === stored) ?? fallback;
    } catch (_error) {
      return fallback;
    }
  });
  const choose = useCallback(
    (next: T) => {
      setValue(next);
      try {
        window.localStorage.setItem(key, next);
      } catch (_error) {
        // Storage can be off (private windows): the choice then lasts this session.
      }
    },
    [key],
  );
  return [value, choose];
}
