import { Link } from 'react-router-dom';

/** Why an action waits for the payment account, with the way to the payment settings. */
export function PaymentAccountNeeded({ message }: { message: string }) {
  return (
    <div className="payment-account-needed" role="note">
      <p>{message}</p>
      <Link to="/profile#payment-settings" className="button button--secondary">
        Set Up Payments
      </Link>
    </div>
  );
}
