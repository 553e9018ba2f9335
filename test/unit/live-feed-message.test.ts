import { describe, expect, it } from 'vitest';
import { JOB_EVENT, type JobEventDetail } from '../../functions/routes.js';
import { toFeedMessage } from '../../functions/live/live-feed.js';
import { jobSummary } from '../support/job-summary.js';

const summary = jobSummary({ status: 'cancelled', moneyState: 'refunding', updatedAt: '2026-11-26T08:00:00.000Z' });

describe("the live feed's job message", () => {
  it('sends the public summary only, never what the bus carries for the payment rules', () => {
    // The bus carries the payment's fields for the payments rules (functions/money/events/),
    // which may run after the job is gone; browsers subscribed to the job must not see them.
    const detail: JobEventDetail = {
      job: { ...summary, paidAt: '2026-11-26T07:01:00.000Z', stripePaymentIntentId: 'pi_123', refundReason: 'Poster asked for it back' },
      change: 'cancelled',
    };
    expect(toFeedMessage(JOB_EVENT.updated, detail)).toEqual({ type: 'job.updated', job: summary });
  });
});
