import type { AccountDeletionRequest } from '../../../../../shared/schemas/profile';
import type { ApiClient } from '../../../lib/api/client';

/** "Delete account": confirmed by the password; the server answers why it refuses, if it does. */
export const deleteAccount = (api: ApiClient, request: AccountDeletionRequest) => api.post<{ deleted: true }>('/me/deletion', request);
