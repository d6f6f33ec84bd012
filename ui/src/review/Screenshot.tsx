//! The page as the run saw it, with a box over each element of the snapshot. Element
//! rectangles are in CSS pixels of the viewport; the screenshot is the viewport, so boxes
//! scale with the image's rendered width.

import { useEffect, useRef, useState } from 'react';
import type { PageElement } from '../bindings';

export function ReviewScreenshot({ src, elements, picked, onPick }: { src: string | null; elements: PageElement[]; picked: string | null; onPick: (e: PageElement) => void }) {
  const [size, setSize] = useState<{ natural: number; shown: number } | null>(null);
  const img = useRef<HTMLImageElement>(null);
  // Boxes follow the image when the panel is resized.
  useEffect(() => {
    const el = img.current;
    if (!el) return;
    const observer = new ResizeObserver(() => el.naturalWidth && setSize({ natural: el.naturalWidth, shown: el.clientWidth }));
    observer.observe(el);
    return () => observer.disconnect();
  }, [src]);
  if (!src) return <p className="empty">No screenshot was taken.</p>;
  const scale = size && size.natural ? size.shown / size.natural : 1;
  return (
    <div className="review-shot" data-testid="review-screenshot">
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
            title={`${el.id} ${el.role || el.tag} “${el.name || el.text}” — ${el.selector}`}
            style={{ left: el.rect.x * scale, top: el.rect.y * scale, width: el.rect.width * scale, height: el.rect.height * scale }}
            onClick={() => onPick(el)}
          />
        ))}
    </div>
  );
}
