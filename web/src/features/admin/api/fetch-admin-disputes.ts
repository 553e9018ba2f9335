import type { AdminDispute, Page } from '../../../../../shared/api';
import type { AdminDisputeView } from '../../../../../shared/disputes';
import type { ApiClient } from '../../../lib/api/client';

export const fetchAdminDisputes = (api: ApiClient, view: AdminDisputeView, cursor: string | null) =>
  api.get<Page<AdminDispute>>('/admin/disputes', { status: view, cursor });
