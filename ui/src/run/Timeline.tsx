import { memo } from 'react';
import { HelpBadges } from './HelpBadges';
import type { StepView } from './reducer';

const StepThumb = memo(function StepThumb({ step, url, selected, onPick }: { step: StepView; url: string | null; selected: boolean; onPick: (n: number) => void }) {
  const failed = step.actions.some((a) => a.status === 'failed');
  return (
    <li className={`step-thumb${selected ? ' selected' : ''}${failed ? ' failed' : ''}`} data-testid="timeline-step" data-step={step.step}>
      <button onClick={() => onPick(step.step)} title={`${step.state} — ${step.url}`}>
        {url ? <img src={url} alt={`step ${step.step} screenshot`} loading="lazy" decoding="async" /> : <div className="no-shot">…</div>}
        <span className="thumb-label">
          {step.step}. {step.state}
        </span>
        {step.durationMs != null && <span className="thumb-time">{(step.durationMs / 1000).toFixed(1)} s</span>}
        <HelpBadges help={step.help} short tabs={step.tabs} />
      </button>
    </li>
  );
});

/** The run's steps in order, each with its screenshot as a thumbnail. */
export function Timeline({ steps, selected, onPick, shotUrl }: { steps: StepView[]; selected: number | null; onPick: (n: number) => void; shotUrl: (p: string) => string }) {
  return (
    <ol className="timeline" data-testid="timeline">
      {steps.map((s) => (
        <StepThumb key={s.step} step={s} url={s.screenshot ? shotUrl(s.screenshot) : null} selected={s.step === selected} onPick={onPick} />
      ))}
    </ol>
  );
}
