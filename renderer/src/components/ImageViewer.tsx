import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';

const MIN_ZOOM = 0.5;
const MAX_ZOOM = 32;
const STEP = 1.25;
/** How far an arrow key moves the picture, in CSS pixels. */
const PAN_STEP = 48;

interface View {
  /** 1: the picture fits the viewer. */
  zoom: number;
  x: number;
  y: number;
}

const FIT: View = { zoom: 1, x: 0, y: 0 };
const clampZoom = (zoom: number): number => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, zoom));

/**
 * A picture fit to its box, zoomed and moved the usual ways: the buttons, the mouse wheel (toward
 * the pointer), + − and 0 on the keyboard, dragging, and the arrow keys. The zoom is told as a
 * share of the original's pixels (`width`), which the picture shown may be a smaller copy of.
 */
export function ImageViewer({ src, alt, width, onError }: { src: string; alt: string; width: number | null; onError?: () => void }) {
  const [view, setView] = useState<View>(FIT);
  const [shownWidth, setShownWidth] = useState<number | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const img = useRef<HTMLImageElement>(null);
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const helpId = useId();

  useEffect(() => setView(FIT), [src]);

  /** Zooms by `factor` keeping the point at (px, py), from the box's centre, where it is. */
  const zoomBy = useCallback((factor: number, px = 0, py = 0) => {
    setView((v) => {
      const zoom = clampZoom(v.zoom * factor);
      if (zoom <= 1) return { zoom, x: 0, y: 0 };
      const k = zoom / v.zoom;
      return { zoom, x: px - (px - v.x) * k, y: py - (py - v.y) * k };
    });
  }, []);

  // React listens to the wheel passively; only a listener of our own may keep the page still.
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = element.getBoundingClientRect();
      zoomBy(e.deltaY < 0 ? STEP : 1 / STEP, e.clientX - rect.left - rect.width / 2, e.clientY - rect.top - rect.height / 2);
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => element.removeEventListener('wheel', onWheel);
  }, [zoomBy]);

  const onKeyDown = (e: KeyboardEvent) => {
    const pan = (dx: number, dy: number) => setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
    const actions: Record<string, () => void> = {
      '+': () => zoomBy(STEP),
      '=': () => zoomBy(STEP),
      '-': () => zoomBy(1 / STEP),
      _: () => zoomBy(1 / STEP),
      '0': () => setView(FIT),
      ArrowLeft: () => pan(PAN_STEP, 0),
      ArrowRight: () => pan(-PAN_STEP, 0),
      ArrowUp: () => pan(0, PAN_STEP),
      ArrowDown: () => pan(0, -PAN_STEP),
    };
    const action = actions[e.key];
    if (!action || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    action();
  };

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0) return;
    drag.current = { id: e.pointerId, x: e.clientX, y: e.clientY };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    if (!d || d.id !== e.pointerId) return;
    const dx = e.clientX - d.x;
    const dy = e.clientY - d.y;
    drag.current = { id: d.id, x: e.clientX, y: e.clientY };
    setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
  };
  const endDrag = () => {
    drag.current = null;
  };

  const measure = () => setShownWidth(img.current?.clientWidth ?? null);
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined' || !img.current) return;
    const observer = new ResizeObserver(measure);
    observer.observe(img.current);
    return () => observer.disconnect();
  }, []);
  const percent = width && shownWidth ? Math.round((view.zoom * shownWidth * 100) / width) : null;
  const zoomText = `${view.zoom === 1 ? 'Fit' : `${Math.round(view.zoom * 100)}% of fit`}${percent === null ? '' : ` · ${percent}%`}`;

  return (
    <div className="image-viewer">
      <div className="viewer-tools" role="toolbar" aria-label="Zoom">
        <button type="button" onClick={() => zoomBy(1 / STEP)} disabled={view.zoom <= MIN_ZOOM} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={() => setView(FIT)} disabled={view.zoom === 1 && view.x === 0 && view.y === 0}>
          Fit
        </button>
        <button type="button" onClick={() => zoomBy(STEP)} disabled={view.zoom >= MAX_ZOOM} aria-label="Zoom in">
          +
        </button>
        <span className="muted small" role="status" data-testid="zoom-level">
          {zoomText}
        </span>
      </div>
      <div
        ref={box}
        className={`viewer-stage${view.zoom > 1 ? ' zoomed' : ''}`}
        tabIndex={0}
        role="group"
        aria-roledescription="zoomable picture"
        aria-label={alt}
        aria-describedby={helpId}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        onDoubleClick={() => (view.zoom === 1 ? zoomBy(2) : setView(FIT))}
      >
        <img
          ref={img}
          src={src}
          alt={alt}
          draggable={false}
          onLoad={measure}
          onError={onError}
          style={{ transform: `translate(${view.x}px, ${view.y}px) scale(${view.zoom})` }}
        />
      </div>
      <p id={helpId} className="visually-hidden">
        Plus and minus zoom, 0 fits the picture to the window, the arrow keys move it.
      </p>
    </div>
  );
}
