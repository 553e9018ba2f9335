import type { PaymentAccount } from '../../../../../shared/payments';
import type { ApiClient } from '../../../lib/api/client';

/** Re-reads the caller's payment account from Stripe and saves it on the profile. */
export const refreshPaymentAccount = (api: ApiClient) => api.post<PaymentAccount>('/payments/account/status', {});
