import type { BulkResolveResult } from '../../../../../shared/api';
import type { ApiClient } from '../../../lib/api/client';

export const bulkResolveDisputes = (api: ApiClient, disputeIds: string[], templateId: string) =>
  api.post<BulkResolveResult>('/admin/disputes/bulk-resolve', { disputeIds, templateId });
