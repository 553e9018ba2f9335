import type { IdentityCheckStart } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

/** "Verify my identity": the Stripe Identity session the verification modal opens (its result comes to the profile by webhook). */
export const startIdentityCheck = (api: ApiClient) => api.post<IdentityCheckStart>('/me/identity-check', {});
