import type { OwnProfile } from '../../../../../shared/api';
import { PaymentAccountActions, PaymentAccountBadge } from '../../payments';

/** Why the user needs a payment account, per role (spec 1 §6: admins are exempt). */
const PURPOSE: Record<OwnProfile['role'], string> = {
  worker: 'Workers are paid out to a connected payment account, so one is needed before you can apply for jobs.',
  poster: 'Jobs are paid upfront by card through a connected payment account, so one is needed before you can post jobs.',
  admin: 'Admin accounts do not need a payment account.',
};

/** The #payment-settings anchor of the profile: the payment account's status (spec 1 §4). */
export function PaymentSettingsCard({ profile }: { profile: OwnProfile }) {
  return (
    <section id="payment-settings" className="card" aria-labelledby="payment-settings-heading">
      <div className="card__heading-row">
        <h2 id="payment-settings-heading">Payment Settings</h2>
        {profile.role === 'admin' ? null : <PaymentAccountBadge account={profile.paymentAccount} />}
      </div>
      <p>{PURPOSE[profile.role]}</p>
      {profile.role === 'admin' ? null : <PaymentAccountActions account={profile.paymentAccount} />}
      <p className="muted">Payments and payouts are processed securely by Stripe; OddJobs never sees your card or bank details.</p>
    </section>
  );
}
