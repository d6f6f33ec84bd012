//! A splitter beside a side panel, and the hook that holds the panel's width. Drag it,
//! or focus it and use the arrow keys (Shift for bigger steps, Home and End for the ends);
//! a double-click gives the panel back its default width. The width is remembered per panel.

import { type CSSProperties, useCallback, useRef, useState } from 'react';
import { clampWidth, dragWidth, keyWidth, type PanelSpec, readWidth, storageKey, widthCap } from './panelWidth';

export interface PanelWidth {
  spec: PanelSpec;
  /** For the panel's element: measures it, for the splitter to start from and announce. */
  ref: (el: HTMLElement | null) => (() => void) | undefined;
  /** For the panel's element: the chosen width, if any (else the style sheet's). */
  style: CSSProperties | undefined;
  /** The width on screen now. */
  shown: number;
  /** Sets the width and remembers it; null goes back to the default. */
  choose: (width: number | null) => void;
  /** The width on screen, read at once (a drag starts from it). */
  measure: () => number;
}

export function usePanelWidth(spec: PanelSpec): PanelWidth {
  const [chosen, setChosen] = useState(() => readWidth(localStorage, spec));
  const [shown, setShown] = useState(0);
  const element = useRef<HTMLElement | null>(null);
  const ref = useCallback((el: HTMLElement | null) => {
    element.current = el;
    if (!el) return;
    const observer = new ResizeObserver(() => setShown(Math.round(el.getBoundingClientRect().width)));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const choose = useCallback(
    (width: number | null) => {
      setChosen(width);
      if (width == null) localStorage.removeItem(storageKey(spec));
      else localStorage.setItem(storageKey(spec), String(width));
    },
    [spec],
  );
  const measure = useCallback(() => element.current?.getBoundingClientRect().width ?? chosen ?? spec.min, [chosen, spec]);
  // The share in the style as well: a window made smaller later narrows the panel with it.
  const style = chosen == null ? undefined : { width: `min(${chosen}px, ${spec.share * 100}vw)`, minWidth: spec.min };
  return { spec, ref, style, shown, choose, measure };
}

export function Splitter({ panel }: { panel: PanelWidth }) {
  const { spec } = panel;
  const drag = useRef<{ x: number; width: number } | null>(null);
  const end = () => (drag.current = null);
  return (
    <div
      role="separator"
      aria-orientation="vertical"
      aria-label={`resize ${spec.label}`}
      aria-valuenow={panel.shown}
      aria-valuemin={spec.min}
      aria-valuemax={widthCap(spec, window.innerWidth)}
      tabIndex={0}
      className="splitter"
      data-panel={spec.id}
      title="drag to resize; double-click for the default width"
      onPointerDown={(e) => {
        if (e.button !== 0) return;
        // Captured, the drag goes on over the canvas and past the window's edge; no text is selected.
        e.currentTarget.setPointerCapture(e.pointerId);
        e.preventDefault();
        e.currentTarget.focus();
        drag.current = { x: e.clientX, width: panel.measure() };
      }}
      onPointerMove={(e) => drag.current && panel.choose(dragWidth(spec, drag.current.width, e.clientX - drag.current.x, window.innerWidth))}
      onPointerUp={end}
      onPointerCancel={end}
      onLostPointerCapture={end}
      onDoubleClick={() => panel.choose(null)}
      onKeyDown={(e) => {
        const width = keyWidth(spec, clampWidth(spec, panel.measure(), window.innerWidth), e.key, e.shiftKey, window.innerWidth);
        if (width == null) return;
        e.preventDefault();
        panel.choose(width);
      }}
    />
  );
}
