//! The page as the run saw it, with a box over each element of the snapshot. Element
//! rectangles are in CSS pixels of the viewport; the screenshot is the viewport, so boxes
//! scale with the image's rendered width. It opens filling the panel's width and zooms
//! (buttons, Ctrl+wheel) inside a scrolling frame, so small controls can be picked.

import { useEffect, useRef, useState } from 'react';
import type { PageElement } from '../bindings';
import { elementLabel } from './describe';

/** Zoom steps, as multiples of the panel's width. */
const ZOOMS = [1, 1.5, 2, 3, 4];

export function ReviewScreenshot({ src, elements, picked, onPick }: { src: string | null; elements: PageElement[]; picked: string | null; onPick: (e: PageElement) => void }) {
  const [size, setSize] = useState<{ natural: number; shown: number } | null>(null);
  const [zoom, setZoom] = useState(0);
  const img = useRef<HTMLImageElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => setZoom(0), [src]);
  // Boxes follow the image when the panel is resized or zoomed.
  useEffect(() => {
    const el = img.current;
    if (!el) return;
    const observer = new ResizeObserver(() => el.naturalWidth && setSize({ natural: el.naturalWidth, shown: el.clientWidth }));
    observer.observe(el);
    return () => observer.disconnect();
  }, [src]);
  // React's wheel listener is passive: only a native one can keep Ctrl+wheel from zooming the whole window.
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      setZoom((z) => Math.max(0, Math.min(ZOOMS.length - 1, z + (e.deltaY < 0 ? 1 : -1))));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [src]);
  if (!src) return <p className="empty">No screenshot was taken.</p>;
  const scale = size && size.natural ? size.shown / size.natural : 1;
  return (
    <div className="review-shot" data-testid="review-screenshot">
      <div className="shot-tools">
        <button aria-label="zoom out" disabled={zoom === 0} onClick={() => setZoom(zoom - 1)}>
          −
        </button>
        <span className="shot-zoom" data-testid="shot-zoom" title="the page’s pixels as shown (Ctrl+wheel zooms)">
          {Math.round(scale * 100)}%
        </span>
        <button aria-label="zoom in" disabled={zoom === ZOOMS.length - 1} onClick={() => setZoom(zoom + 1)}>
          +
        </button>
        <button disabled={zoom === 0} onClick={() => setZoom(0)}>
          Fit width
        </button>
      </div>
      <div className="shot-frame" ref={frame}>
        <div className="shot-page" style={{ width: `${ZOOMS[zoom] * 100}%` }}>
          <img
            ref={img}
            src={src}
            alt="page at the time of the review"
            onLoad={(e) => setSize({ natural: e.currentTarget.naturalWidth, shown: e.currentTarget.clientWidth })}
          />
          {size &&
            elements.map((el) => (
              <button
                key={el.id}
                className={`element-box${picked === el.id ? ' picked' : ''}`}
                data-testid="element-box"
                data-label={elementLabel(el)}
                title={`${elementLabel(el)} — ${el.id}, ${el.selector}`}
                style={{ left: el.rect.x * scale, top: el.rect.y * scale, width: el.rect.width * scale, height: el.rect.height * scale }}
                onClick={() => onPick(el)}
              />
            ))}
        </div>
      </div>
    </div>
  );
}
