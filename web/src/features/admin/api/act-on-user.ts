import type { AdminUserSummary, UserAction } from '../../../../../shared/admin';
import type { ApiClient } from '../../../lib/api/client';

/** Suspend, reinstate or send a password reset email, with the admin's reason. */
export const actOnUser = (api: ApiClient, userId: string, action: UserAction, reason: string) =>
  api.post<AdminUserSummary>(`/admin/users/${encodeURIComponent(userId)}/${action}`, { reason });
