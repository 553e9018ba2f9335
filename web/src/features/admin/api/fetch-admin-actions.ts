import type { AdminActionType, AdminActionView } from '../../../../../shared/admin';
import type { Page } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const fetchAdminActions = (api: ApiClient, type: AdminActionType | null, cursor: string | null) =>
  api.get<Page<AdminActionView>>('/admin/actions', { type, cursor });
