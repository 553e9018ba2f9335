import type { ApiClient } from '../../../lib/api/client';

/** The caller's payment account: created if needed, and a Stripe onboarding link back to this origin. */
export const startPaymentAccountSetup = (api: ApiClient) => api.post<{ accountLinkUrl: string }>('/payments/account', {});
