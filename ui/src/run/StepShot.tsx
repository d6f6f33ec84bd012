//! The step's page, as large as the viewer's centre allows (Playwright's trace viewer puts
//! the snapshot there too), with the element each action acted on boxed and numbered and
//! a click's landing point marked. Rectangles are in CSS pixels of the viewport and the
//! screenshot is the viewport, so everything scales with the image's shown width.

import { useEffect, useRef, useState } from 'react';
import { elementLabel } from '../review/describe';
import { actedOn } from './actedOn';
import type { StepView } from './reducer';
import { useStepElements } from './stepPages';

export function StepShot({ step, src }: { step: StepView; src: string | null }) {
  const stage = useRef<HTMLDivElement>(null);
  const [room, setRoom] = useState({ width: 0, height: 0 });
  const [natural, setNatural] = useState<{ width: number; height: number } | null>(null);
  useEffect(() => {
    const el = stage.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setRoom({ width: el.clientWidth, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  useEffect(() => setNatural(null), [src]);
  const elements = useStepElements(step);

  // The whole page fits: as wide as the stage unless that would make it too tall.
  const width = natural ? Math.min(room.width, (room.height * natural.width) / natural.height) : room.width;
  const scale = natural ? width / natural.width : 0;
  const acts = natural ? actedOn(elements, step.actions) : [];
  return (
    <div className="step-stage" ref={stage} data-testid="step-stage">
      {src ? (
        <div className="stage-page" style={{ width }}>
          <img
            src={src}
            alt={`step ${step.step} screenshot`}
            data-testid="full-screenshot"
            onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })}
          />
          {acts.map((a) => (
            <div
              key={a.index}
              className={`acted-box action-${step.actions.find((x) => x.index === a.index)?.status ?? 'done'}`}
              data-testid="acted-box"
              data-action={a.index + 1}
              title={`action ${a.index + 1} (${a.type}): ${elementLabel(a.element)}`}
              style={{ left: a.element.rect.x * scale, top: a.element.rect.y * scale, width: a.element.rect.width * scale, height: a.element.rect.height * scale }}
            >
              <span className="acted-label">
                {a.index + 1} {a.type}
              </span>
            </div>
          ))}
          {acts.map((a) => a.click && <div key={`c${a.index}`} className="click-point" data-testid="click-point" data-action={a.index + 1} style={{ left: a.click.x * scale, top: a.click.y * scale }} />)}
        </div>
      ) : (
        <p className="empty">No screenshot for this step.</p>
      )}
    </div>
  );
}
