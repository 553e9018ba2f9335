/** Payment-account states and payout options (spec 1 §4 and §9, spec 2 §2 "Worker earnings"). */
export type PaymentAccountStatus = 'not_connected' | 'pending' | 'complete';

export interface PaymentAccount {
  status: PaymentAccountStatus;
  detailsSubmitted: boolean;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  /** Fast payouts, for workers: available once payouts are enabled. */
  instantPayoutsAvailable: boolean;
  expressPayoutsAvailable: boolean;
  sameDayPayoutsAvailable: boolean;
}

export const NO_PAYMENT_ACCOUNT: PaymentAccount = {
  status: 'not_connected',
  detailsSubmitted: false,
  chargesEnabled: false,
  payoutsEnabled: false,
  instantPayoutsAvailable: false,
  expressPayoutsAvailable: false,
  sameDayPayoutsAvailable: false,
};

/** Complete = onboarding done and both charges and payouts enabled (DECISIONS.md "Accounts"). */
export function accountStatus(flags: { detailsSubmitted: boolean; chargesEnabled: boolean; payoutsEnabled: boolean }): PaymentAccountStatus {
  return flags.detailsSubmitted && flags.chargesEnabled && flags.payoutsEnabled ? 'complete' : 'pending';
}

export const ACCOUNT_BADGE: Record<PaymentAccountStatus, string> = {
  not_connected: 'Not Connected',
  pending: 'Setup In Progress',
  complete: 'Connected & Ready',
};

export const PAYOUT_OPTIONS = [
  { id: 'instant', name: 'Instant', timing: 'About 30 minutes', fee: '1.5% fee', requirement: 'Eligible US debit cards' },
  { id: 'express', name: 'Express', timing: 'Same day', fee: '1.5% fee', requirement: 'Eligible US bank accounts, requests before 2 PM Pacific' },
  { id: 'standard', name: 'Standard', timing: '1-2 business days', fee: 'Free', requirement: 'A verified US bank account' },
] as const;
