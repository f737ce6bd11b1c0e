import { useEffect, useRef, type ReactNode } from 'react';

/** A screen's title; it takes focus when the screen opens, so screen readers announce it. */
export function ScreenHeading({ children, id }: { children: ReactNode; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h2 ref={ref} id={id} tabIndex={-1} className="screen-heading">
      {children}
    </h2>
  );
}
