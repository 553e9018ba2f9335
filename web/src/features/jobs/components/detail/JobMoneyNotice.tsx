import type { PartyJob } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { formatUsdAmount } from '../../../../../../shared/money';

/**
 * What became of a job's money when it did not simply go to the worker (issue 34), as its
 * parties see it: refunded with the reason, reversed after release, or split by a dispute.
 */
export function JobMoneyNotice({ job }: { job: PartyJob }) {
  const text = moneyText(job);
  return text ? <p className="notice notice--info">{text}</p> : null;
}

function moneyText(job: PartyJob): string | null {
  switch (job.moneyState) {
    case 'refunding':
    case 'refunded':
      return job.refundReason ? MSG.payments.refundedMessage(job.title, formatUsdAmount(job.postedAmount), job.refundReason) : null;
    case 'reversed':
      return MSG.payments.reversedMessage(job.title, formatUsdAmount(job.payment), formatUsdAmount(job.postedAmount), job.refundReason ?? '');
    case 'split':
      return job.splitToWorker !== undefined && job.splitRefunded !== undefined
        ? MSG.disputes.resolvedSplit(job.title, formatUsdAmount(job.splitToWorker), formatUsdAmount(job.splitRefunded))
        : null;
    default:
      return null;
  }
}
