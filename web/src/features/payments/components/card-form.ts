import type { JobPaymentStart } from '../../../../../shared/api';

/** What either card form needs: the PaymentIntent to confirm, and what to do once it is paid. */
export interface CardFormProps {
  payment: JobPaymentStart['payment'];
  onPaid(): Promise<void>;
}
