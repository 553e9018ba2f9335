import { useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { formatCents } from '../../../../../shared/money';
import type { InstantPayoutAvailability } from '../../../../../shared/payouts';
import { apiErrorText } from '../../../lib/api/client';
import { useApi } from '../../../lib/api/useApi';
import { formatCalendarDay } from '../../../lib/format';
import { ConfirmDialog } from '../../../lib/components/ConfirmDialog';
import { LoadingState } from '../../../lib/components/LoadingState';
import { useToast } from '../../../lib/toast/useToast';
import { useInstantPayouts } from '../api/fetch-instant-payouts';
import { requestInstantPayout } from '../api/request-instant-payout';

/**
 * 'Cash out now' (issue 26): the worker's instant-available balance sent to their debit card,
 * the 1.5% fee and what they receive shown before they confirm. Shown once the payment account
 * is fully set up; a card that takes no Instant Payouts says so instead.
 */
export function InstantCashOut() {
  const availability = useInstantPayouts();
  return (
    <section className="card section-block" aria-labelledby="cash-out-heading">
      <h2 id="cash-out-heading">Instant Payout</h2>
      {availability.isPending ? <LoadingState label="Loading your instant payout balance..." /> : null}
      {availability.isError ? (
        <div role="alert">
          <p>{apiErrorText(availability.error, MSG.payouts.loadFailed)}</p>
          <button type="button" className="button button--secondary" onClick={() => void availability.refetch()}>
            Try again
          </button>
        </div>
      ) : null}
      {availability.isSuccess ? <CashOut availability={availability.data} onChanged={() => void availability.refetch()} /> : null}
    </section>
  );
}

function CashOut({ availability, onChanged }: { availability: InstantPayoutAvailability; onChanged(): void }) {
  const api = useApi();
  const toast = useToast();
  /** The key of the confirmation being sent: a retry after a failure reuses it, a new confirmation gets a new one. */
  const [requestKey, setRequestKey] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { eligible, cashOut, cardLast4, payouts } = availability;

  if (!eligible) return <p>{MSG.payouts.notEligible}</p>;

  async function confirm(amount: number, key: string) {
    setBusy(true);
    try {
      await requestInstantPayout(api, amount, key);
      toast.success(MSG.payouts.sent(formatCents(amount)));
      setRequestKey(null);
    } catch (error) {
      toast.error(apiErrorText(error, MSG.payouts.failed));
    } finally {
      setBusy(false);
      onChanged();
    }
  }

  return (
    <>
      <p>
        Available to cash out instantly: <strong>{formatCents(availability.instantAvailable)}</strong>
      </p>
      {cashOut ? (
        <>
          <ul className="cash-out__facts">
            <li>{MSG.payouts.feeLine(formatCents(cashOut.fee))}</li>
            <li>{MSG.payouts.netLine(formatCents(cashOut.amount))}</li>
          </ul>
          <button type="button" className="button button--primary" onClick={() => setRequestKey(crypto.randomUUID())} disabled={busy}>
            {MSG.payouts.cashOut}
          </button>
          {requestKey ? (
            <ConfirmDialog
              title={MSG.payouts.confirmTitle}
              confirmLabel={`Cash out ${formatCents(cashOut.amount)}`}
              busy={busy}
              onCancel={() => setRequestKey(null)}
              onConfirm={() => void confirm(cashOut.amount, requestKey)}
            >
              <p>{MSG.payouts.confirm(formatCents(cashOut.amount), cardLast4 ?? '', formatCents(cashOut.fee), formatCents(cashOut.amount + cashOut.fee))}</p>
            </ConfirmDialog>
          ) : null}
        </>
      ) : (
        <p>{MSG.payouts.nothingToCashOut}</p>
      )}
      {payouts.length ? (
        <>
          <h3>Your instant payouts</h3>
          <ul className="cash-out__history">
            {payouts.map((payout) => (
              <li key={payout.requestKey}>
                {formatCents(payout.amount)} on {formatCalendarDay(payout.createdAt.slice(0, 10))} (fee {formatCents(payout.fee)})
                {payout.status === 'pending' ? MSG.payouts.historyInProgress : null}
                {payout.status === 'failed' ? MSG.payouts.historyFailed(payout.failureMessage ?? MSG.payouts.failedNoReason) : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
