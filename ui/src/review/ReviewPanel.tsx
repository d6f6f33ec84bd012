//! The review queue: runs waiting for a person, what they saw and what failed, and the
//! ways to unblock them. The list is every open review and the latest closed ones (*Show
//! more* for older ones); the review chosen comes in full on its own.

import { useEffect, useState } from 'react';
import { PANELS } from '../app/panelWidth';
import { Splitter, usePanelWidth } from '../app/Splitter';
import type { Backend } from '../backend/types';
import { ProposalForm } from './ProposalForm';
import { ResolutionForm } from './ResolutionForm';
import { Backticked } from './Backticked';
import { DiffView } from './DiffView';
import { ClosestStates } from './ClosestStates';
import { actionRef, elementLabel, failureText, tabLabel } from './describe';
import { ReviewScreenshot } from './Screenshot';
import { useReviewDetail } from './useReviewDetail';
import type { PageElement, Resolution, ReviewList } from '../bindings';

export function ReviewPanel({ backend, queue, onShowMore, notify }: { backend: Backend; queue: ReviewList; onShowMore: () => void; notify: (m: string, level?: 'info' | 'error') => void }) {
  const { reviews } = queue;
  const [openId, setOpenId] = useState<number | null>(null);
  const [diff, setDiff] = useState<string | null>(null);
  const [picked, setPicked] = useState<PageElement | null>(null);
  const listPanel = usePanelWidth(PANELS.reviewList);
  const chosen = reviews.find((r) => r.id === openId) ?? reviews.find((r) => r.status === 'open') ?? null;
  const review = useReviewDetail(backend, chosen, notify);
  const older = queue.closed - reviews.filter((r) => r.status !== 'open').length;
  useEffect(() => {
    setDiff(null);
    setPicked(null);
  }, [chosen?.id]);

  const preview = async (r: Resolution) => {
    if (!review) return;
    try {
      setDiff((await backend.previewResolution(review.id, r)).diff || '(no change to the workflow)');
    } catch (e) {
      notify((e as Error).message, 'error');
    }
  };
  const resolve = async (r: Resolution, save: boolean) => {
    if (!review) return;
    try {
      await backend.resolveReview(review.id, r, save);
      notify(`Review #${review.id} resolved: ${r.kind}${save ? ' (saved into the workflow)' : ''}`);
      setOpenId(null);
    } catch (e) {
      notify((e as Error).message, 'error');
    }
  };

  const decide = async (approve: boolean) => {
    if (!review) return;
    try {
      await backend.decideProposal(review.id, approve);
      notify(`Proposal #${review.id} ${approve ? 'approved: saved into the workflow' : 'rejected'}`);
      setOpenId(null);
    } catch (e) {
      notify((e as Error).message, 'error');
    }
  };

  return (
    <div className="review-panel" data-testid="review-panel">
      <ul className="review-list" ref={listPanel.ref} style={listPanel.style}>
        {reviews.map((r) => (
          <li key={r.id} className={r.id === chosen?.id ? 'current' : ''}>
            <button className="link" onClick={() => setOpenId(r.id)} data-testid="review-item">
              <span className={`phase phase-${r.status === 'open' ? 'needs_human_review' : 'succeeded'}`}>#{r.id} {r.status}</span> {r.proposed_by && <span className="node-tag">proposed by the model</span>} {r.workflow} · {r.state ?? 'no state'} · <Backticked text={failureText(r)} />
            </button>
          </li>
        ))}
        {reviews.length === 0 && <li className="empty">Nothing waiting for review.</li>}
        {older > 0 && (
          <li className="hint" data-testid="older-reviews">
            {older} older closed {older === 1 ? 'review' : 'reviews'} not listed.{' '}
            <button className="link" onClick={onShowMore}>
              Show more
            </button>
          </li>
        )}
      </ul>
      <Splitter panel={listPanel} />
      {chosen && !review && (
        <p className="empty" data-testid="review-loading">
          Loading review #{chosen.id}…
        </p>
      )}
      {review && (
        <div className="review-detail" data-testid="review-detail">
          <h3>
            Review #{review.id}: {review.workflow} <span className="hint">run {review.run_id}{review.step != null && `, step ${review.step}`}</span>
          </h3>
          <p className="problem error">
            <Backticked text={failureText(review)} />
          </p>
          {review.failure.kind === 'no_state' && <ClosestStates closest={review.failure.closest} />}
          <p className="step-url">
            {review.url} — {review.title}
          </p>
          {review.tabs && review.tabs.length > 0 && (
            <p className="hint" data-testid="other-tabs">
              Other tabs: {review.tabs.map(tabLabel).join(' · ')}
            </p>
          )}
          {review.action && (
            <p>
              Failing action: <Backticked text={actionRef(review.action.state, review.action.index, review.action.action.type)} /> <code>{JSON.stringify(review.action.action)}</code>
            </p>
          )}
          {review.tried.length > 0 && (
            <ol className="tried">
              {review.tried.map((t, i) => (
                <li key={i}>
                  {t.stage}: {t.outcome}
                </li>
              ))}
            </ol>
          )}
          <div className="review-body">
            <ReviewScreenshot src={review.screenshot ? backend.screenshotUrl(review.screenshot) : null} elements={review.elements} picked={picked?.id ?? null} onPick={setPicked} />
            <div>
              {/* Always there, one line high: picking must not move the buttons below it. */}
              <p className={`picked-element${picked ? '' : ' hint'}`} data-testid="picked-element">
                {picked ? (
                  <>
                    {elementLabel(picked)} <code>{picked.selector}</code>
                  </>
                ) : (
                  'Pick an element on the screenshot to act on it.'
                )}
              </p>
              {review.status === 'open' && review.proposed_by ? (
                <ProposalForm review={review} onPreview={() => review.resolution && void preview(review.resolution)} onDecide={(a) => void decide(a)} />
              ) : review.status === 'open' ? (
                <ResolutionForm key={review.id} review={review} picked={picked} canSave={backend.canSaveFixes} onPreview={preview} onResolve={resolve} />
              ) : (
                <p>
                  Resolved: <code>{JSON.stringify(review.resolution)}</code>
                </p>
              )}
              {diff && <DiffView diff={diff} />}
            </div>
          </div>
        </div>
      )}
    </div>
  );
}
