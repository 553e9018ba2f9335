import type { PartyJob } from '../../../../../../shared/api';
import { MSG } from '../../../../../../shared/messages';
import { formatUsdAmount, heldAmount } from '../../../../../../shared/money';
import { formatCalendarDay } from '../../../../lib/format';

/**
 * What became of a job's money when it did not simply go to the worker (issue 34, issue 43), as
 * its parties and the admin see it: a chargeback by the poster's bank (with the evidence
 * deadline while it is open), part of it refunded in Stripe, refunded with the reason, reversed
 * after release (and what the worker's balance could not return), or split by a dispute.
 */
export function JobMoneyNotice({ job }: { job: PartyJob }) {
  const text = moneyText(job);
  return (
    <>
      {job.chargeback ? <ChargebackNotice job={job} /> : null}
      {text ? <p className="notice notice--info">{text}</p> : null}
    </>
  );
}

function ChargebackNotice({ job }: { job: PartyJob }) {
  const chargeback = job.chargeback!;
  const amount = formatUsdAmount(chargeback.amount);
  if (chargeback.status !== 'open') {
    return <p className="notice notice--info">{chargeback.status === 'won' ? MSG.payments.chargebackWon(job.title, amount) : MSG.payments.chargebackLost(job.title, amount)}</p>;
  }
  return (
    <div className="notice notice--warning" role="status">
      <strong>{MSG.payments.chargebackOpenedTitle}.</strong> {MSG.payments.chargebackOpened(job.title, amount, null)}
      {chargeback.evidenceDueBy ? <> Evidence is due by {formatCalendarDay(chargeback.evidenceDueBy.slice(0, 10))}.</> : null}
    </div>
  );
}

function moneyText(job: PartyJob): string | null {
  switch (job.moneyState) {
    case 'held':
      return job.refundedWhileHeld ? MSG.payments.refundedInPart(job.title, formatUsdAmount(job.refundedWhileHeld), formatUsdAmount(heldAmount(job))) : null;
    case 'refunding':
    case 'refunded':
      return job.refundReason ? MSG.payments.refundedMessage(job.title, formatUsdAmount(job.postedAmount), job.refundReason) : null;
    case 'reversed':
      return job.reversal
        ? MSG.payments.reversalSummary(job.title, formatUsdAmount(job.reversal.recovered), formatUsdAmount(job.reversal.unrecovered), job.refundReason ?? '')
        : MSG.payments.reversedMessage(job.title, formatUsdAmount(job.payment), formatUsdAmount(job.postedAmount), job.refundReason ?? '');
    case 'split':
      return job.splitToWorker !== undefined && job.splitRefunded !== undefined
        ? MSG.disputes.resolvedSplit(job.title, formatUsdAmount(job.splitToWorker), formatUsdAmount(job.splitRefunded))
        : null;
    default:
      return null;
  }
}
