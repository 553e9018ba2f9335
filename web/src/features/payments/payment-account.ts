import type { PaymentAccount } from '../../../../shared/payments';

/** Complete with charges and payouts enabled: nothing is left to set up (spec 1 §4). */
export function isPaymentSetupComplete(account: PaymentAccount): boolean {
  return account.status === 'complete' && account.chargesEnabled && account.payoutsEnabled;
}
