import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Where an element starts on the page (for a list the window scrolls), measured after each
 * render and on resize; it moves when what is above it changes (a notice, a wrapped heading).
 */
export function useDocumentTop(ref: RefObject<HTMLElement | null>): number {
  const [top, setTop] = useState(0);
  useLayoutEffect(() => {
    const measure = () => {
      const element = ref.current;
      if (!element) return;
      const next = Math.round(element.getBoundingClientRect().top + window.scrollY);
      setTop((current) => (current === next ? current : next));
    };
    measure();
    window.addEventListener('resize', measure);
    return () => window.removeEventListener('resize', measure);
  });
  return top;
}

/** An element's width, followed as the window or the layout changes. */
export function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(Math.round(element.clientWidth));
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
