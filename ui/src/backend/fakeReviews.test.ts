import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RunDetail, ReviewView } from '../bindings';
import { FakeBackend } from './fake';

const fixture = (path: string) => JSON.parse(readFileSync(new URL(`../../fixtures-public/fixtures/demo-run/${path}`, import.meta.url), 'utf8'));
const base = (fixture('reviews.json') as ReviewView[])[0];
const detail = fixture('recording.json').detail as RunDetail;

/** 120 reviews of the recorded run: the first and the last two open, the others resolved;
 * each review's page names it. */
const months = () =>
  new FakeBackend({
    recording: { detail },
    reviews: Array.from({ length: 120 }, (_, i) => ({
      ...base,
      id: i + 1,
      url: `http://shop.test/${i + 1}`,
      status: i === 0 || i >= 118 ? 'open' : 'resolved',
      resolution: i === 0 || i >= 118 ? null : { kind: 'skip' },
    })),
  });

describe('the fake’s review queue, as `list_reviews` answers', () => {
  it('lists every open review, then the latest closed ones, without their pages', async () => {
    const fake = months();
    const list = await fake.listReviews(null);
    expect(list.closed).toBe(117);
    expect(list.reviews.map((r) => r.id)).toEqual([120, 119, 1, ...Array.from({ length: 50 }, (_, i) => 118 - i)]);
    expect(list.reviews.slice(0, 3).map((r) => r.status)).toEqual(['open', 'open', 'open']);
    for (const r of list.reviews) for (const heavy of ['elements', 'url', 'title', 'tried', 'states', 'suggested_checks', 'action']) expect(r).not.toHaveProperty(heavy);
    expect(list.reviews[3]).toMatchObject({ id: 118, status: 'resolved', resolution: { kind: 'skip' }, failure: base.failure, reason: base.reason });

    expect((await fake.listReviews(100)).reviews).toHaveLength(103);
    expect((await fake.listReviews(0)).reviews.map((r) => r.id)).toEqual([120, 119, 1]);
    // The oldest closed one, out of the list, in full.
    expect(await fake.showReview(2)).toMatchObject({ url: 'http://shop.test/2', status: 'resolved', elements: base.elements });
  });

  it('keeps each run’s reviews with the run, however old', async () => {
    const fake = months();
    const [run] = await fake.listRuns({});
    expect(run.reviews).toBe(120);
    const opened = await fake.openRun(detail.run.id);
    expect(opened.reviews.map((r) => r.id)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(opened.reviews[0]).not.toHaveProperty('elements');
  });
});
