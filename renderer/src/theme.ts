import { useCallback, useEffect, useState } from 'react';

export type Theme = 'light' | 'dark';

const KEY = 'asset-sync.theme';
const darkQuery = () => window.matchMedia?.('(prefers-color-scheme: dark)');

function storedTheme(): Theme | null {
  try {
    const value = window.localStorage.getItem(KEY);
    return value === 'light' || value === 'dark' ? value : null;
  } catch (_error) {
    return null;
  }
}

/**
 * The system's theme until the user picks one; the choice is kept and set on <html> as
 * `data-theme`, which the style sheet prefers over `prefers-color-scheme`.
 */
export function useTheme(): { theme: Theme; toggle: () => void } {
  const [chosen, setChosen] = useState<Theme | null>(storedTheme);
  const [systemDark, setSystemDark] = useState(() => darkQuery()?.matches ?? false);

  useEffect(() => {
    const query = darkQuery();
    if (!query) return;
    const onChange = (e: MediaQueryListEvent) => setSystemDark(e.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);

  useEffect(() => {
    if (chosen) document.documentElement.dataset.theme = chosen;
    else delete document.documentElement.dataset.theme;
  }, [chosen]);

  const theme: Theme = chosen ?? (systemDark ? 'dark' : 'light');
  const toggle = useCallback(() => {
    const next: Theme = theme === 'dark' ? 'light' : 'dark';
    setChosen(next);
    try {
      window.localStorage.setItem(KEY, next);
    } catch (_error) {
      // Storage can be off (private windows); the choice then lasts this session.
    }
  }, [theme]);
  return { theme, toggle };
}
