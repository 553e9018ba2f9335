import type { OwnProfile } from '../../../../../shared/api';
import { ACCOUNT_BADGE } from '../../../../../shared/payments';
import { PaymentAccountActions } from './PaymentAccountActions';

/** The payment account's badge (spec 1 §4 texts), as the profile and the jobs page show it. */
export function PaymentAccountBadge({ account }: { account: OwnProfile['paymentAccount'] }) {
  return <span className={`badge badge--payment-${account.status}`}>{ACCOUNT_BADGE[account.status]}</span>;
}

/**
 * The jobs page's payment status card for signed-in workers and posters (spec 1 §2), so a
 * worker learns that setup is missing before applying, and a poster before posting.
 */
export function PaymentStatusCard({ account }: { account: OwnProfile['paymentAccount'] }) {
  return (
    <section className="card payment-status-card" aria-labelledby="payment-status-heading">
      <div className="card__heading-row">
        <h3 id="payment-status-heading">Payment Status</h3>
        <PaymentAccountBadge account={account} />
      </div>
      <PaymentAccountActions account={account} />
    </section>
  );
}
