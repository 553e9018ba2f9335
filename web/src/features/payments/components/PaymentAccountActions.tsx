import { MSG } from '../../../../../shared/messages';
import type { PaymentAccount } from '../../../../../shared/payments';
import { usePaymentAccount } from '../hooks/usePaymentAccount';
import { isPaymentSetupComplete } from '../payment-account';

/**
 * The payment settings' actions: connect or continue the Stripe setup and refresh its status,
 * replaced by 'Payment Setup Complete' once nothing is left to do.
 */
export function PaymentAccountActions({ account }: { account: PaymentAccount }) {
  const actions = usePaymentAccount();
  if (isPaymentSetupComplete(account)) return <p className="payment-setup-complete">{MSG.payments.setupComplete}</p>;
  const connected = account.status !== 'not_connected';
  return (
    <div className="button-row payment-account-actions">
      <button type="button" className="button" disabled={actions.busy !== null} onClick={() => void actions.connect()}>
        {connected ? 'Continue Setup' : 'Connect Stripe Account'}
      </button>
      {connected ? (
        <button type="button" className="button button--secondary" disabled={actions.busy !== null} onClick={() => void actions.refresh()}>
          Refresh Status
        </button>
      ) : null}
    </div>
  );
}
