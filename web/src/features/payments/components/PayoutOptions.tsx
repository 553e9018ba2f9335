import { useState } from 'react';
import { MSG } from '../../../../../shared/messages';
import { PAYOUT_OPTIONS, type PaymentAccount } from '../../../../../shared/payments';
import { useToast } from '../../../lib/toast/useToast';
import { usePaymentAccount } from '../hooks/usePaymentAccount';

type PayoutOptionId = (typeof PAYOUT_OPTIONS)[number]['id'];

/** Which flag of the account says an option is open to it (docs/decisions/0264-fast-payout-capabilities-follow-the-payout-destinations.md). */
const availableIn = (account: PaymentAccount, id: PayoutOptionId): boolean =>
  id === 'instant' ? account.instantPayoutsAvailable : id === 'express' ? account.expressPayoutsAvailable : account.payoutsEnabled;

/**
 * The fast-payout options of a fully set-up worker account (spec 1 §9), each marked as open to
 * the account's payout destination or not, and the check that asks Stripe again (spec 2 §5
 * "checks fast-payout capability"); `onChecked` reads the account again after it.
 */
export function PayoutOptions({ account, onChecked }: { account: PaymentAccount; onChecked(): void }) {
  const { recheck } = usePaymentAccount();
  const toast = useToast();
  const [checking, setChecking] = useState(false);

  async function check() {
    setChecking(true);
    const checked = await recheck();
    setChecking(false);
    if (!checked) return toast.error(MSG.payments.capabilitiesCheckFailed);
    toast.success(MSG.payments.capabilitiesChecked);
    onChecked();
  }

  return (
    <section className="section-block" aria-labelledby="payout-options-heading">
      <h2 id="payout-options-heading">Payout Options</h2>
      {account.sameDayPayoutsAvailable ? null : <p className="muted">{MSG.payments.standardPayoutsOnly}</p>}
      <ul className="payout-options">
        {PAYOUT_OPTIONS.map((option) => (
          <li key={option.id} className="card payout-option">
            <h3>{option.name}</h3>
            <dl className="payout-option__facts">
              <dt>Timing</dt>
              <dd>{option.timing}</dd>
              <dt>Fee</dt>
              <dd>{option.fee}</dd>
              <dt>Requirement</dt>
              <dd>{option.requirement}</dd>
            </dl>
            <p className="payout-option__availability">{availableIn(account, option.id) ? MSG.payments.payoutOptionAvailable : MSG.payments.payoutOptionUnavailable}</p>
          </li>
        ))}
      </ul>
      <button type="button" className="button button--secondary" disabled={checking} aria-busy={checking} onClick={() => void check()}>
        {MSG.payments.checkCapabilities}
      </button>
    </section>
  );
}
