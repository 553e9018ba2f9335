import type { JobSummary } from '../../../../../shared/api';
import { formatCents, jobPriceQuote } from '../../../../../shared/money';
import { useAuth } from '../../../lib/auth/useAuth';

/**
 * A job's price as the one reading it understands it (DECISIONS.md Wave 3 "Prices each side
 * reads right"): its poster what they pay, the fee broken down; a worker what they earn;
 * everyone else the payment a worker would earn.
 */
export function JobPrice({ job }: { job: Pick<JobSummary, 'payment' | 'postedAmount' | 'posterId'> }) {
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
  if (profile?.role === 'worker') return <>You earn {formatCents(quote.payment)}</>;
  return <>{formatCents(quote.payment)}</>;
}
