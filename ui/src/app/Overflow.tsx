//! A toolbar's secondary buttons: in the row while there is room, in a *More* menu when the
//! window, or the panels beside the toolbar, leave too little. The row takes the toolbar's
//! spare width and keeps every button laid out (those that do not fit wrap onto a clipped
//! second line), so its room does not depend on how many it shows and the count is stable.

import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { fittingCount } from './fit';

export interface ToolAction {
  label: string;
  title?: string;
  disabled?: boolean;
  onClick: () => void;
}

/** `actions` in the order they leave the row last to first: the last goes into *More* first. */
export function OverflowButtons({ actions }: { actions: ToolAction[] }) {
  const row = useRef<HTMLDivElement>(null);
  const more = useRef<HTMLSpanElement>(null);
  const [shown, setShown] = useState(actions.length);
  const inMore = actions.slice(shown);

  useLayoutEffect(() => {
    const el = row.current!;
    const count = () => {
      const gap = parseFloat(getComputedStyle(el).columnGap) || 0;
      const toolbarGap = parseFloat(getComputedStyle(el.parentElement!).columnGap) || 0;
      const reserve = more.current!.getBoundingClientRect().width + toolbarGap;
      // While *More* is in the row it takes room the buttons would have without it.
      const room = el.getBoundingClientRect().width + (more.current!.dataset.unused ? 0 : reserve);
      const widths = [...el.children].map((b) => b.getBoundingClientRect().width);
      setShown(fittingCount(widths, gap, room, reserve));
    };
    count();
    const observer = new ResizeObserver(count);
    observer.observe(el);
    return () => observer.disconnect();
  }, [actions.length]);

  return (
    <>
      <div className="overflow-row" ref={row}>
        {actions.map((a, i) => (
          <button key={a.label} onClick={a.onClick} disabled={a.disabled} title={a.title} className={i < shown ? undefined : 'overflowed'} tabIndex={i < shown ? undefined : -1}>
            {a.label}
          </button>
        ))}
      </div>
      <span className="more" ref={more} data-unused={inMore.length ? undefined : ''}>
        <MoreMenu actions={inMore} />
      </span>
    </>
  );
}

function MoreMenu({ actions }: { actions: ToolAction[] }) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = (refocus: boolean) => {
    setOpen(false);
    if (refocus) toggle.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    box.current?.querySelector<HTMLButtonElement>('[role="menuitem"]:not(:disabled)')?.focus();
    // A press anywhere else closes the menu, as menus do.
    const outside = (e: PointerEvent) => box.current?.contains(e.target as Node) || setOpen(false);
    window.addEventListener('pointerdown', outside);
    return () => window.removeEventListener('pointerdown', outside);
  }, [open]);
  useEffect(() => {
    if (!actions.length) setOpen(false);
  }, [actions.length]);

  const step = (by: number) => {
    const items = [...(box.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]:not(:disabled)') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    items[(at + by + items.length) % items.length]?.focus();
  };
  return (
    <span ref={box}>
      <button ref={toggle} aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen(!open)} tabIndex={actions.length ? undefined : -1} title="the buttons there is no room for">
        More ▾
      </button>
      {open && (
        <div
          className="more-menu"
          role="menu"
          aria-label="more actions"
          onKeyDown={(e) => {
            if (e.key === 'Escape') close(true);
            else if (e.key === 'ArrowDown') step(1);
            else if (e.key === 'ArrowUp') step(-1);
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        >
          {actions.map((a) => (
            <button key={a.label} role="menuitem" disabled={a.disabled} title={a.title} onClick={() => (close(false), a.onClick())}>
              {a.label}
            </button>
          ))}
        </div>
      )}
    </span>
  );
}
