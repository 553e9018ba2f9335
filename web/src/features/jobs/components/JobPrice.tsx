import type { JobSummary } from '../../../../../shared/api';
import { formatCents, jobPriceQuote } from '../../../../../shared/money';
import { OFFER_TEXTS } from '../../../../../shared/offers';
import { useAuth } from '../../../lib/auth/useAuth';

/**
 * A job's price as the one reading it understands it (DECISIONS.md Wave 3 "Prices each side
 * reads right"): its poster what they pay, the fee broken down; a worker what they earn;
 * everyone else the payment a worker would earn; on an open job open to offers, the budget.
 */
export function JobPrice({ job }: { job: Pick<JobSummary, 'payment' | 'postedAmount' | 'posterId' | 'openToOffers' | 'status'> }) {
  const { userId, profile } = useAuth();
  const quote = jobPriceQuote(job);
  if (userId !== null && userId === job.posterId) {
    return (
      <>
        You pay {formatCents(quote.postedAmount)}
        <span className="job-price__breakdown">
          {formatCents(quote.payment)} payment + {formatCents(quote.platformFee)} service fee
        </span>
      </>
    );
  }
  // Open to offers, the payment is the budget the offers are made against (issue 45).
  if (job.openToOffers && job.status === 'open') return <>{OFFER_TEXTS.budget(formatCents(quote.payment))}</>;
  if (profile?.role === 'worker') return <>You earn {formatCents(quote.payment)}</>;
  return <>{formatCents(quote.payment)}</>;
}
